import { describe, expect, it } from 'vitest';
import { formElicitation, roots, sampling, urlElicitation } from '../input/input-requests';
import { missingCapability } from './client-capabilities';

const form = formElicitation('?', { type: 'object', properties: {} });
const url = urlElicitation('?', 'https://example.com');
const sample = sampling({ messages: [], maxTokens: 1 });

describe('missingCapability', () => {
  it.each([
    [form, {}, { elicitation: { form: {} } }],
    [form, { elicitation: {} }, undefined],
    [form, { elicitation: { form: {} } }, undefined],
    [form, { elicitation: { url: {} } }, { elicitation: { form: {} } }],
    [url, { elicitation: {} }, { elicitation: { url: {} } }],
    [url, { elicitation: { url: {} } }, undefined],
    [sample, { elicitation: {} }, { sampling: {} }],
    [sample, { sampling: {} }, undefined],
    [roots(), {}, { roots: {} }],
    [roots(), { roots: { listChanged: true } }, undefined],
  ])('%j with %j needs %j', (request, declared, missing) => {
    expect(missingCapability(request, declared)).toEqual(missing);
  });
});
