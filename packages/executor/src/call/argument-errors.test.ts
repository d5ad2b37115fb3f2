import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../tools/define-tool';
import { ArgumentValidator } from './argument-validator';

const check = (
  input_schema: Record<string, unknown> | z.ZodType,
  args: Record<string, unknown>,
) => {
  const tool = defineTool({ name: 't', description: 't', input_schema, execute: () => null });
  const result = new ArgumentValidator().check(tool, args as never);
  return result.ok ? 'ok' : result.message.replace('Invalid arguments for "t": ', '');
};

describe('argument errors name each failing path and what was expected', () => {
  it('JSON Schema keywords', () => {
    const schema = {
      type: 'object',
      properties: {
        n: { type: 'number', minimum: 0, exclusiveMaximum: 10 },
        s: { type: 'string', minLength: 2, pattern: '^[a-z]+$' },
        e: { enum: ['x', 'y'] },
        c: { const: 'fixed' },
        list: { type: 'array', items: { type: 'integer' }, maxItems: 2, uniqueItems: true },
        either: { anyOf: [{ type: 'string' }, { type: 'number' }] },
        date: { type: 'string', format: 'date' },
        maybe: { type: ['string', 'null'] },
        nested: { type: 'object', properties: { 'odd key': { type: 'boolean' } } },
      },
      required: ['n'],
    };
    expect(check(schema, { n: 3 })).toBe('ok');
    const lines = check(schema, {
      n: -1,
      s: 'A',
      e: 'z',
      c: 'other',
      list: [1, 1.5, 1],
      either: true,
      date: 'tomorrow',
      maybe: 3,
      nested: { 'odd key': 'yes' },
    })
      .replace(/\.$/, '')
      .split('; ');
    expect(lines).toEqual(
      expect.arrayContaining([
        '"n": expected a number >= 0, got number -1',
        '"s": expected at least 2 characters, got string "A"',
        '"s": expected a string matching /^[a-z]+$/, got string "A"',
        '"e": expected one of "x", "y", got string "z"',
        '"c": expected "fixed", got string "other"',
        '"list": expected at most 2 items, got array of 3',
        '"list[1]": expected integer, got number 1.5',
        '"either": expected string or number, got boolean true',
        '"date": expected a string in the "date" format, got string "tomorrow"',
        '"maybe": expected string or null, got number 3',
        '"nested["odd key"]": expected boolean, got string "yes"',
        '"list": expected unique items, but items 0 and 2 are equal',
      ]),
    );
    expect(
      check({ type: 'object', properties: { m: { type: 'number', multipleOf: 5 } } }, { m: 7 }),
    ).toBe('"m": expected a multiple of 5, got number 7.');
    expect(check(schema, { n: 20 })).toBe('"n": expected a number < 10, got number 20.');
    expect(check({ type: 'object', required: ['a'] }, {})).toBe(
      '"a": required property is missing.',
    );
  });

  it('the top level and long lists', () => {
    expect(check({ type: 'object', minProperties: 1 }, {})).toBe(
      'arguments: expected at least 1 properties.',
    );
    expect(check({ type: 'object' }, [] as never)).toBe(
      'arguments: expected object, got array of 0.',
    );
    const many = Object.fromEntries(Array.from({ length: 20 }, (_, index) => [`k${index}`, 'x']));
    const properties = Object.fromEntries(
      Object.keys(many).map((key) => [key, { type: 'number' }]),
    );
    expect(check({ type: 'object', properties }, many)).toMatch(/; and 8 more\.$/);
  });

  it('zod schemas', () => {
    const schema = z.strictObject({
      a: z.number(),
      b: z.string().max(3),
      c: z.enum(['x', 'y']),
      d: z.union([z.string(), z.number()]),
      e: z.email(),
      f: z.literal('only'),
      list: z.array(z.number()).min(2),
    });
    const message = check(schema, {
      a: '15',
      b: 'long',
      c: 'z',
      d: false,
      e: 'nope',
      f: 'other',
      list: [1],
      extra: 1,
    });
    expect(message.replace(/\.$/, '').split('; ')).toEqual([
      '"a": expected number, got string "15"',
      '"b": expected at most 3 characters, got string "long"',
      '"c": expected one of "x", "y", got string "z"',
      '"d": expected string or number, got boolean false',
      '"e": expected a string in the "email" format, got string "nope"',
      '"f": expected "only", got string "other"',
      '"list": expected at least 2 items, got array of 1',
      '"extra": unexpected property',
    ]);
    expect(check(z.object({ a: z.number() }), {})).toBe('"a": required property is missing.');
  });
});
