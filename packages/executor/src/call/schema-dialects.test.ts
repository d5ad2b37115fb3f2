import { describe, expect, it } from 'vitest';
import { createExecutor } from '../executor';
import { defineTool } from '../tools/define-tool';
import { ArgumentValidator } from './argument-validator';
import { schemaDialectOf } from './schema-dialects';

const toolWith = (input_schema: Record<string, unknown>) =>
  defineTool({
    name: 'confirm_order',
    description: 'Confirms.',
    input_schema,
    execute: () => 'ok',
  });

const check = (schema: Record<string, unknown>, args: Record<string, unknown>) =>
  new ArgumentValidator().check(toolWith(schema), args as never);

describe('schemaDialectOf', () => {
  it('reads draft-07, 2019-09 and 2020-12 in their http/https and # spellings', () => {
    expect(schemaDialectOf({ $schema: 'http://json-schema.org/draft-07/schema#' })).toBe(
      'draft-07',
    );
    expect(schemaDialectOf({ $schema: 'https://json-schema.org/draft-07/schema' })).toBe(
      'draft-07',
    );
    expect(schemaDialectOf({ $schema: 'http://json-schema.org/draft-06/schema#' })).toBe(
      'draft-07',
    );
    expect(schemaDialectOf({ $schema: 'https://json-schema.org/draft/2019-09/schema' })).toBe(
      '2019-09',
    );
    expect(schemaDialectOf({ $schema: 'https://json-schema.org/draft/2020-12/schema' })).toBe(
      '2020-12',
    );
  });

  it('reads a missing or unknown $schema as 2020-12', () => {
    expect(schemaDialectOf({ type: 'object' })).toBe('2020-12');
    expect(schemaDialectOf({ $schema: 'https://example.com/my-dialect' })).toBe('2020-12');
    expect(schemaDialectOf({ $schema: 42 })).toBe('2020-12');
  });
});

describe('input schemas of every dialect an MCP server may send', () => {
  it('regression: a draft-07 schema (what @modelcontextprotocol/sdk 1.x lists for zod tools) is callable', async () => {
    const schema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { orderId: { type: 'string' }, quantity: { type: 'integer', minimum: 1 } },
      required: ['orderId'],
      additionalProperties: false,
    };
    const [ok, bad] = await createExecutor({ tools: [toolWith(schema)] }).executeToolCalls([
      { id: 'call_1', name: 'confirm_order', arguments: { orderId: 'A1', quantity: 2 } },
      { id: 'call_2', name: 'confirm_order', arguments: { quantity: 0 } },
    ]);
    expect(ok).toMatchObject({ success: true, output: 'ok' });
    expect(bad).toMatchObject({ success: false, error_code: 'invalid_arguments' });
    expect(bad?.error).toContain('orderId');
  });

  it('draft-07 keywords keep their draft-07 meaning (items as an array is a tuple)', () => {
    const schema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { pair: { type: 'array', items: [{ type: 'string' }, { type: 'number' }] } },
      dependencies: { a: ['b'] },
    };
    expect(check(schema, { pair: ['x', 1] }).ok).toBe(true);
    expect(check(schema, { pair: [1, 'x'] }).ok).toBe(false);
    expect(check(schema, { a: 1 }).ok).toBe(false);
    expect(check(schema, { a: 1, b: 2 }).ok).toBe(true);
  });

  it('a 2019-09 schema is validated with 2019-09 keywords (dependentRequired)', () => {
    const schema = {
      $schema: 'https://json-schema.org/draft/2019-09/schema',
      type: 'object',
      properties: { card: { type: 'string' }, cvc: { type: 'string' } },
      dependentRequired: { card: ['cvc'] },
    };
    expect(check(schema, { card: '4111' }).ok).toBe(false);
    expect(check(schema, { card: '4111', cvc: '123' }).ok).toBe(true);
  });

  it('a 2020-12 schema keeps prefixItems; an unknown $schema is read as 2020-12', () => {
    const properties = { pair: { type: 'array', prefixItems: [{ type: 'string' }] } };
    for (const $schema of ['https://json-schema.org/draft/2020-12/schema', 'urn:unknown']) {
      const schema = { $schema, type: 'object', properties };
      expect(check(schema, { pair: ['x'] }).ok).toBe(true);
      expect(check(schema, { pair: [1] }).ok).toBe(false);
    }
  });

  it('a schema invalid in its own dialect is still a schema error', () => {
    const result = check(
      { $schema: 'http://json-schema.org/draft-07/schema#', type: 'no-such-type' },
      {},
    );
    expect(result).toMatchObject({ ok: false, schemaError: true });
  });
});
