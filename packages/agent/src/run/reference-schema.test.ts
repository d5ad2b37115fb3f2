import { defineTool } from '@mtpx/executor';
import { scriptedProvider } from '@mtpx/providers/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, REFERENCE_SCHEMA, schemaWithReferences } from '../index';

const either = (schema: object) => ({ anyOf: [schema, REFERENCE_SCHEMA] });
const shared = { $ref: '#/$defs/ref' };
const eitherShared = (schema: object) => ({ anyOf: [schema, shared] });

describe('schemaWithReferences', () => {
  it('lets every value position hold a reference: properties, items, maps, branches, $defs', () => {
    const schema = {
      type: 'object',
      properties: {
        name: { type: 'string', description: 'Who.' },
        tags: { type: 'array', items: { type: 'string' } },
        pair: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }] },
        scores: { type: 'object', additionalProperties: { type: 'number' } },
        byPattern: { type: 'object', patternProperties: { '^x': { type: 'boolean' } } },
        shape: {
          anyOf: [{ type: 'object', properties: { r: { type: 'number' } } }, { type: 'null' }],
        },
        anything: {},
        node: { $ref: '#/$defs/node' },
      },
      required: ['name'],
      additionalProperties: false,
      $defs: { node: { type: 'object', properties: { value: { type: 'integer' } } } },
    };
    expect(schemaWithReferences(schema, { shared: false })).toEqual({
      type: 'object',
      properties: {
        name: { description: 'Who.', ...either({ type: 'string' }) },
        tags: either({ type: 'array', items: either({ type: 'string' }) }),
        pair: either({
          type: 'array',
          prefixItems: [either({ type: 'number' }), either({ type: 'number' })],
        }),
        scores: either({ type: 'object', additionalProperties: either({ type: 'number' }) }),
        byPattern: either({
          type: 'object',
          patternProperties: { '^x': either({ type: 'boolean' }) },
        }),
        shape: either({
          anyOf: [
            { type: 'object', properties: { r: either({ type: 'number' }) } },
            { type: 'null' },
          ],
        }),
        anything: {},
        node: either({ $ref: '#/$defs/node' }),
      },
      required: ['name'],
      additionalProperties: false,
      $defs: { node: { type: 'object', properties: { value: either({ type: 'integer' }) } } },
    });
    // The original is untouched.
    expect(schema.properties.name).toEqual({ type: 'string', description: 'Who.' });
  });

  it('shares ONE reference definition from two value positions on, and copies it for one', () => {
    const one = { type: 'object', properties: { a: { type: 'number' } } };
    expect(schemaWithReferences(one)).toEqual({
      type: 'object',
      properties: { a: either({ type: 'number' }) },
    });
    const two = {
      type: 'object',
      properties: { a: { type: 'number' }, list: { type: 'array', items: { $ref: '#/$defs/n' } } },
      $defs: { n: { type: 'integer' } },
    };
    expect(schemaWithReferences(two)).toEqual({
      type: 'object',
      properties: {
        a: eitherShared({ type: 'number' }),
        list: eitherShared({ type: 'array', items: eitherShared({ $ref: '#/$defs/n' }) }),
      },
      $defs: { n: { type: 'integer' }, ref: REFERENCE_SCHEMA },
    });
    // The shared form is the shorter one on the wire.
    expect(JSON.stringify(schemaWithReferences(two)).length).toBeLessThan(
      JSON.stringify(schemaWithReferences(two, { shared: false })).length,
    );
  });

  it('names its definition so as not to replace one of the schema’s own', () => {
    const schema = {
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      $defs: { ref: { type: 'string' } },
    };
    const result = schemaWithReferences(schema) as { properties: { a: unknown }; $defs: object };
    expect(result.properties.a).toEqual({
      anyOf: [{ type: 'number' }, { $ref: '#/$defs/ref_2' }],
    });
    expect(result.$defs).toEqual({ ref: { type: 'string' }, ref_2: REFERENCE_SCHEMA });
  });

  it('survives a schema object that contains itself', () => {
    const looped: Record<string, unknown> = { type: 'object' };
    looped.properties = { self: looped };
    const result = schemaWithReferences(looped) as { properties: { self: unknown } };
    expect(result.properties.self).toBe(looped);
  });
});

describe('references in the offered schemas, validation against the original', () => {
  it('referenceSchemas: true offers the widened schema, and the executor checks the RESOLVED value against the original', async () => {
    const shout = defineTool({
      name: 'text.shout',
      description: 'Upper-cases a text.',
      input_schema: z.object({ text: z.string() }),
      execute: ({ text }) => text.toUpperCase(),
    });
    const count = defineTool({
      name: 'text.count',
      description: 'Counts characters.',
      input_schema: z.object({ text: z.string() }),
      execute: ({ text }) => text.length,
    });
    const provider = scriptedProvider([
      {
        toolCalls: [
          { id: 'call_1', name: 'text.count', arguments: { text: 'hello' } },
          { id: 'call_2', name: 'text.shout', arguments: { text: { $ref: 'call_1' } } },
          { id: 'call_3', name: 'text.shout', arguments: { text: 'ok' } },
        ],
      },
      { text: 'Done.' },
    ]);
    const output = await createAgent({
      provider,
      tools: [shout, count],
      referenceSchemas: true,
    }).run('Go.');
    const offered = provider.requests[0]?.tools.find((tool) => tool.name === 'text.shout');
    expect(offered?.input_schema.properties).toEqual({ text: either({ type: 'string' }) });
    expect(output.tool_results.map((result) => result.error ?? result.output)).toEqual([
      5,
      'Invalid arguments for "text.shout": "text": expected string, got number 5.',
      'OK',
    ]);
  });

  it("'auto' (the default) widens the schemas only for a provider that enforces them", async () => {
    const tool = defineTool({
      name: 'x.y',
      description: 'X.',
      input_schema: { type: 'object', properties: { a: { type: 'number' } } },
      execute: () => null,
    });
    const plain = scriptedProvider([{ text: 'Hi.' }]);
    await createAgent({ provider: plain, tools: [tool] }).run('Hi');
    expect(plain.requests[0]?.tools[0]?.input_schema).toEqual({
      type: 'object',
      properties: { a: { type: 'number' } },
    });
    const strict = Object.assign(scriptedProvider([{ text: 'Hi.' }]), { strictTools: true });
    await createAgent({ provider: strict, tools: [tool], referenceSchemas: 'auto' }).run('Hi');
    expect(strict.requests[0]?.tools[0]?.input_schema).toEqual({
      type: 'object',
      properties: { a: either({ type: 'number' }) },
    });
  });

  it('referenceSchemas: false offers the original schemas, even to a strict provider', async () => {
    const provider = Object.assign(scriptedProvider([{ text: 'Hi.' }]), { strictTools: true });
    const tool = defineTool({
      name: 'x.y',
      description: 'X.',
      input_schema: { type: 'object', properties: { a: { type: 'number' } } },
      execute: () => null,
    });
    await createAgent({ provider, tools: [tool], referenceSchemas: false }).run('Hi');
    expect(provider.requests[0]?.tools[0]?.input_schema).toEqual({
      type: 'object',
      properties: { a: { type: 'number' } },
    });
  });
});
