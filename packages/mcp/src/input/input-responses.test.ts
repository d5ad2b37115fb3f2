import { describe, expect, it } from 'vitest';
import { formElicitation, roots, sampling, urlElicitation } from './input-requests';
import {
  checkInputResponse,
  type SamplingResponse,
  samplingText,
  viewInputResponse,
} from './input-responses';

const form = formElicitation('When?', {
  type: 'object',
  properties: { date: { type: 'string', format: 'date' }, seats: { type: 'integer', minimum: 1 } },
  required: ['date'],
});

describe('checkInputResponse', () => {
  it('accepts form content that matches the requested schema', () => {
    expect(
      checkInputResponse(form, { action: 'accept', content: { date: '2026-12-24', seats: 2 } }),
    ).toEqual({
      ok: true,
      value: { action: 'accept', content: { date: '2026-12-24', seats: 2 } },
    });
  });

  it.each([
    [{ action: 'accept', content: { seats: 2 } }, /date/],
    [{ action: 'accept', content: { date: '2026-12-24', seats: 0 } }, /seats/],
    [{ action: 'accept', content: { date: 12 } }, /date/],
    [{ action: 'ok' }, /action/],
    [null, /object/],
  ])('refuses %j', (response, problem) => {
    const checked = checkInputResponse(form, response);
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.problem).toMatch(problem);
  });

  it('reduces declines, cancels and URL accepts to their action', () => {
    expect(checkInputResponse(form, { action: 'decline', content: { x: 1 } })).toEqual({
      ok: true,
      value: { action: 'decline' },
    });
    expect(checkInputResponse(urlElicitation('Go', 'https://x'), { action: 'accept' })).toEqual({
      ok: true,
      value: { action: 'accept' },
    });
  });

  it('checks sampling and roots results', () => {
    const sample = sampling({ messages: [], maxTokens: 5 });
    const answer = { role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'm' };
    expect(checkInputResponse(sample, answer)).toEqual({ ok: true, value: answer });
    expect(checkInputResponse(sample, { role: 'assistant', content: { type: 'text' } }).ok).toBe(
      false,
    );
    expect(
      checkInputResponse(roots(), { roots: [{ uri: 'file:///a', name: 'a', extra: 1 }] }),
    ).toEqual({
      ok: true,
      value: { roots: [{ uri: 'file:///a', name: 'a' }] },
    });
    expect(checkInputResponse(roots(), { roots: 'file:///a' }).ok).toBe(false);
  });
});

describe('viewInputResponse', () => {
  it('reads each kind', () => {
    expect(viewInputResponse(undefined)).toEqual({ kind: 'missing' });
    expect(viewInputResponse({ action: 'cancel' })).toEqual({
      kind: 'elicitation',
      action: 'cancel',
    });
    expect(viewInputResponse({ action: 'accept', content: { a: 'b' } })).toEqual({
      kind: 'elicitation',
      action: 'accept',
      content: { a: 'b' },
    });
    expect(viewInputResponse({ roots: [] })).toEqual({ kind: 'roots', roots: [] });
    const response: SamplingResponse = {
      role: 'assistant',
      content: [
        { type: 'text', text: 'a' },
        { type: 'image', data: '' },
        { type: 'text', text: 'b' },
      ],
      model: 'm',
    };
    expect(viewInputResponse(response)).toEqual({ kind: 'sampling', response });
    expect(samplingText(response)).toBe('ab');
    expect(samplingText({ ...response, content: { type: 'image' } })).toBeUndefined();
  });
});
