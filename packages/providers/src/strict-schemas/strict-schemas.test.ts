import type { JsonSchemaObject, ToolSpec } from '@mtpx/protocol';
import { describe, expect, it } from 'vitest';
import { toAnthropicTools } from '../anthropic/anthropic-request';
import { createOpenAIProvider } from '../openai';
import { toOpenAITools } from '../openai/openai-request';
import { startScriptedOpenAIServer } from '../testing';
import { createToolNameMapping } from '../tool-names';
import { anthropicStrictSchemaIssues } from './anthropic-strict-schema';
import { closeObjectSchemas } from './close-object-schemas';
import { dropNullOptionals, openAIStrictParameters } from './openai-strict-parameters';
import { openAIStrictSchemaIssues } from './openai-strict-schema';

const closed = (properties: Record<string, unknown>, extra: object = {}): JsonSchemaObject => ({
  type: 'object',
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
  ...extra,
});

describe('openAIStrictSchemaIssues: the documented strict subset', () => {
  it('accepts closed objects, arrays, anyOf, enums and local $defs references', () => {
    const schema = closed(
      {
        city: { type: 'string', pattern: '^[A-Z]', format: 'date' },
        count: { type: ['integer', 'null'], minimum: 0, maximum: 9 },
        tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, maxItems: 3 },
        where: { anyOf: [{ $ref: '#/$defs/point' }, { type: 'null' }] },
      },
      { $defs: { point: closed({ x: { type: 'number' }, y: { type: 'number' } }) } },
    );
    expect(openAIStrictSchemaIssues(schema)).toEqual([]);
  });

  it('refuses what strict mode refuses, naming where', () => {
    expect(openAIStrictSchemaIssues({ anyOf: [closed({})] } as JsonSchemaObject)).toEqual([
      '#: the root must not be "anyOf"',
      '#: the root must be of type "object"',
    ]);
    expect(openAIStrictSchemaIssues({ type: 'object', properties: { a: {} } })).toEqual([
      '#: an object must set "additionalProperties": false',
      '#: every property must be required (missing: a)',
    ]);
    expect(
      openAIStrictSchemaIssues(
        closed(
          {
            a: { type: 'string', minLength: 1, default: 'x' },
            b: { allOf: [{ type: 'string' }] },
            c: { $ref: 'https://example.com/schema' },
            d: { $ref: '#/$defs/missing' },
            e: { type: 'date' },
            f: { $ref: '#/$defs/n', description: 'An n.' },
          },
          { $defs: { n: { type: 'integer' } } },
        ),
      ),
    ).toEqual([
      '#/properties/a: "minLength" is not supported',
      '#/properties/a: "default" is not supported',
      '#/properties/b: "allOf" is not supported',
      '#/properties/c: "$ref" must name a local definition, got https://example.com/schema',
      '#/properties/d: "$ref" must name a local definition, got #/$defs/missing',
      '#/properties/e: type "date" is not a JSON Schema type',
      '#/properties/f: "$ref" must stand alone',
    ]);
  });

  it('enforces the size limits: 10 levels of objects, 5,000 properties, 1,000 enum values', () => {
    let deep: JsonSchemaObject = closed({ leaf: { type: 'string' } });
    for (let level = 0; level < 10; level += 1) deep = closed({ next: deep });
    expect(openAIStrictSchemaIssues(deep)).toEqual(['11 levels of nested objects (at most 10)']);
    const wide = closed(
      Object.fromEntries(Array.from({ length: 5_001 }, (_, n) => [`p${n}`, { type: 'string' }])),
    );
    expect(openAIStrictSchemaIssues(wide)).toEqual(['5001 object properties (at most 5,000)']);
    const values = Array.from({ length: 1_001 }, (_, n) => n);
    expect(openAIStrictSchemaIssues(closed({ e: { type: 'integer', enum: values } }))).toEqual([
      '1001 enum values (at most 1,000)',
    ]);
    const long = Array.from({ length: 300 }, (_, n) => `${'x'.repeat(60)}${n}`);
    expect(openAIStrictSchemaIssues(closed({ e: { type: 'string', enum: long } }))).toEqual([
      expect.stringMatching(/^#\/properties\/e: an enum of 300 values holds \d+ characters$/),
    ]);
  });
});

describe('anthropicStrictSchemaIssues: the documented strict subset and its costs', () => {
  it('accepts optional properties and defaults, and counts them and the unions', () => {
    const schema: JsonSchemaObject = {
      type: 'object',
      properties: {
        a: { type: 'string', default: 'x' },
        b: { anyOf: [{ type: 'number' }, { type: 'null' }] },
        c: { type: ['string', 'null'] },
        list: { type: 'array', items: { type: 'string' }, minItems: 1 },
      },
      required: ['list'],
      additionalProperties: false,
    };
    expect(anthropicStrictSchemaIssues(schema)).toEqual({
      issues: [],
      cost: { optionalParameters: 3, unionParameters: 2 },
    });
  });

  it('refuses bounds, minItems above 1, object enums and recursive schemas', () => {
    const { issues } = anthropicStrictSchemaIssues({
      type: 'object',
      properties: {
        n: { type: 'number', minimum: 0 },
        s: { type: 'string', maxLength: 5 },
        l: { type: 'array', items: { type: 'string' }, minItems: 2 },
        e: { enum: [{ a: 1 }] },
        tree: { $ref: '#/$defs/tree' },
      },
      required: ['n', 's', 'l', 'e', 'tree'],
      additionalProperties: false,
      $defs: {
        tree: {
          type: 'object',
          properties: { children: { type: 'array', items: { $ref: '#/$defs/tree' } } },
          required: ['children'],
          additionalProperties: false,
        },
      },
    });
    expect(issues).toEqual([
      '#/properties/n: "minimum" is not supported',
      '#/properties/s: "maxLength" is not supported',
      '#/properties/l: "minItems" may only be 0 or 1',
      '#/properties/e: "enum" may hold only strings, numbers, booleans and null',
      '#: recursive schemas are not supported',
    ]);
  });
});

describe('closeObjectSchemas', () => {
  it('closes every object that leaves additionalProperties unset, and keeps values as they are', () => {
    const schema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: {
        $schema: { type: 'string' },
        inner: { type: 'object', properties: { x: { type: 'string' } } },
        map: { type: 'object', additionalProperties: { type: 'number' } },
        choice: { enum: [{ type: 'object' }] },
      },
    };
    expect(closeObjectSchemas(schema)).toEqual({
      type: 'object',
      properties: {
        $schema: { type: 'string' },
        inner: {
          type: 'object',
          properties: { x: { type: 'string' } },
          additionalProperties: false,
        },
        map: { type: 'object', additionalProperties: { type: 'number' } },
        choice: { enum: [{ type: 'object' }] },
      },
      additionalProperties: false,
    });
  });
});

const tool = (name: string, input_schema: JsonSchemaObject): ToolSpec =>
  ({ name, description: name, input_schema }) as ToolSpec;

describe('strict tools on the wire', () => {
  it('OpenAI: strict where the schema can be made to fit, the schema as it is where it cannot', () => {
    const specs = [
      tool('fits', { type: 'object', properties: { a: { type: 'number' } }, required: ['a'] }),
      tool('optional', { type: 'object', properties: { a: { type: 'number' } } }),
      tool('open', { type: 'object', properties: { m: { type: 'object' } }, required: ['m'] }),
    ];
    const names = createToolNameMapping(specs.map((spec) => spec.name));
    expect(toOpenAITools(specs, names, true).map((each) => each.function)).toEqual([
      {
        name: 'fits',
        description: 'fits',
        parameters: { ...specs[0]?.input_schema, additionalProperties: false },
        strict: true,
      },
      {
        name: 'optional',
        description: 'optional',
        parameters: {
          type: 'object',
          properties: { a: { type: ['number', 'null'] } },
          required: ['a'],
          additionalProperties: false,
        },
        strict: true,
      },
      // A free-form object cannot be closed without forbidding every key.
      { name: 'open', description: 'open', parameters: specs[2]?.input_schema },
    ]);
    expect(toOpenAITools(specs, names).every((each) => each.function.strict === undefined)).toBe(
      true,
    );
  });

  it('Anthropic: strict in order while the request stays within 20 tools and 16 unions', () => {
    const union = { anyOf: [{ type: 'number' }, { type: 'string' }] };
    const specs = Array.from({ length: 25 }, (_, n) =>
      tool(`t${n}`, closed(n < 2 ? { a: union, b: union, c: union, d: union, e: union } : {})),
    );
    specs.splice(2, 0, tool('bounded', closed({ n: { type: 'number', minimum: 1 } })));
    const names = createToolNameMapping(specs.map((spec) => spec.name));
    const sent = toAnthropicTools(specs, names, true);
    // 5 + 5 unions fit; the bounded tool cannot be strict; then 18 more tools up to 20.
    expect(sent.filter((each) => each.strict).length).toBe(20);
    expect(sent.find((each) => each.name === 'bounded')?.strict).toBeUndefined();
    expect(sent.at(-1)?.strict).toBeUndefined();
    const unions = Array.from({ length: 4 }, (_, n) =>
      tool(`u${n}`, closed({ a: union, b: union, c: union, d: union, e: union })),
    );
    const unionNames = createToolNameMapping(unions.map((spec) => spec.name));
    expect(toAnthropicTools(unions, unionNames, true).map((each) => each.strict)).toEqual([
      true,
      true,
      true,
      undefined,
    ]);
  });
});

describe('openAIStrictParameters: optional properties as required-but-nullable', () => {
  const schema: JsonSchemaObject = {
    type: 'object',
    properties: {
      q: { type: 'string', default: 'all', description: 'Query.' },
      unit: { type: 'string', enum: ['C', 'F'], description: 'Unit.' },
      near: { type: ['string', 'null'] },
      value: { anyOf: [{ type: 'number' }, { $ref: '#/$defs/ref' }] },
      updates: {
        type: 'object',
        properties: { title: { type: 'string' }, priority: { type: 'integer' } },
      },
      list: { type: 'array', items: { $ref: '#/$defs/item' } },
    },
    required: ['list'],
    $defs: {
      ref: {
        type: 'object',
        properties: { $ref: { type: 'string' }, $path: { type: 'string' } },
        required: ['$ref', '$path'],
      },
      item: {
        type: 'object',
        properties: { id: { type: 'integer' }, note: { type: 'string' } },
        required: ['id'],
      },
    },
  };

  it('makes every property required, adding null the cheapest way, and drops defaults', () => {
    const converted = openAIStrictParameters(schema);
    expect(converted?.schema).toEqual({
      type: 'object',
      properties: {
        q: { type: ['string', 'null'], description: 'Query.' },
        unit: {
          description: 'Unit.',
          anyOf: [{ type: 'string', enum: ['C', 'F'] }, { type: 'null' }],
        },
        near: { type: ['string', 'null'] },
        value: { anyOf: [{ type: 'number' }, { $ref: '#/$defs/ref' }, { type: 'null' }] },
        updates: {
          anyOf: [
            {
              type: 'object',
              properties: {
                title: { type: ['string', 'null'] },
                priority: { type: ['integer', 'null'] },
              },
              required: ['title', 'priority'],
              additionalProperties: false,
            },
            { type: 'null' },
          ],
        },
        list: { type: 'array', items: { $ref: '#/$defs/item' } },
      },
      required: ['q', 'unit', 'near', 'value', 'updates', 'list'],
      additionalProperties: false,
      $defs: {
        ref: {
          type: 'object',
          properties: { $ref: { type: 'string' }, $path: { type: 'string' } },
          required: ['$ref', '$path'],
          additionalProperties: false,
        },
        item: {
          type: 'object',
          properties: { id: { type: 'integer' }, note: { type: ['string', 'null'] } },
          required: ['id', 'note'],
          additionalProperties: false,
        },
      },
    });
    expect(openAIStrictSchemaIssues(converted?.schema as JsonSchemaObject)).toEqual([]);
  });

  it('turns the nulls of left-out properties back into absences, and keeps real nulls', () => {
    const converted = openAIStrictParameters(schema);
    if (converted === undefined) throw new Error('expected strict parameters');
    const args = {
      q: null,
      unit: null,
      near: null,
      value: { $ref: 'call_1', $path: '' },
      updates: { title: null, priority: 3 },
      list: [
        { id: 1, note: null },
        { id: 2, note: 'x' },
      ],
    };
    expect(dropNullOptionals(args, converted)).toEqual({
      near: null,
      value: { $ref: 'call_1', $path: '' },
      updates: { priority: 3 },
      list: [{ id: 1 }, { id: 2, note: 'x' }],
    });
    expect(args.q).toBeNull(); // a copy: the arguments themselves are unchanged
    expect(dropNullOptionals({ updates: null, list: [] }, converted)).toEqual({ list: [] });
  });

  it('through the OpenAI adapter: the model’s nulls never reach the tool, whole or streamed', async () => {
    const turn = {
      toolCalls: [{ id: 'call_1', name: 'find', arguments: { q: 'x', limit: null } }],
    };
    const server = await startScriptedOpenAIServer([turn, turn]);
    try {
      const provider = createOpenAIProvider({
        model: 'gpt-4.1-mini',
        apiKey: 'test',
        baseURL: `${server.url}/v1`,
        maxRetries: 0,
        strictTools: true,
      });
      const tools = [
        tool('find', {
          type: 'object',
          properties: { q: { type: 'string' }, limit: { type: 'integer' } },
          required: ['q'],
        }),
      ];
      const request = { messages: [{ role: 'user' as const, content: 'Find x.' }], tools };
      const whole = await provider.generate(request);
      expect(whole.message.tool_calls?.[0]?.arguments).toEqual({ q: 'x' });
      const ready = [];
      for await (const event of provider.stream(request)) {
        if (event.type === 'tool-call-ready') ready.push(event.toolCall.arguments);
      }
      expect(ready).toEqual([{ q: 'x' }]);
      const sent = server.requests[0]?.body as { tools: Array<{ function: object }> };
      expect(sent.tools[0]?.function).toMatchObject({
        strict: true,
        parameters: { required: ['q', 'limit'] },
      });
    } finally {
      await server.close();
    }
  });
});
