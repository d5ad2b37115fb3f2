import type { JsonSchemaObject, ToolSpec } from '@mtpx/protocol';
import { describe, expect, it } from 'vitest';
import { toAnthropicTools } from './anthropic/anthropic-request';
import { toOpenAITools } from './openai/openai-request';
import {
  anthropicStrictSchemaIssues,
  closeObjectSchemas,
  openAIStrictSchemaIssues,
} from './strict-schemas';
import { createToolNameMapping } from './tool-names';

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
  it('OpenAI: strict where the closed schema fits, the schema as it is where it does not', () => {
    const specs = [
      tool('fits', { type: 'object', properties: { a: { type: 'number' } }, required: ['a'] }),
      tool('optional', { type: 'object', properties: { a: { type: 'number' } } }),
    ];
    const names = createToolNameMapping(specs.map((spec) => spec.name));
    expect(toOpenAITools(specs, names, true).map((each) => each.function)).toEqual([
      {
        name: 'fits',
        description: 'fits',
        parameters: { ...specs[0]?.input_schema, additionalProperties: false },
        strict: true,
      },
      { name: 'optional', description: 'optional', parameters: specs[1]?.input_schema },
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
