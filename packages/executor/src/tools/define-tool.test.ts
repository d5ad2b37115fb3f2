import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ExecutorError } from '../errors';
import { defineTool, toolSpecOf } from './define-tool';

describe('defineTool', () => {
  it('makes a ToolSpec with defaults plus the function and runtime options', () => {
    const tool = defineTool({
      name: 'notes.append',
      description: 'Append a note.',
      input_schema: {
        type: 'object',
        properties: { text: { type: 'string' } },
        required: ['text'],
      },
      risk_level: 'write',
      timeout_ms: 1000,
      retries: 2,
      cache_ttl_seconds: 0,
      execute: () => 'ok',
    });
    expect(toolSpecOf(tool)).toEqual({
      name: 'notes.append',
      description: 'Append a note.',
      input_schema: {
        type: 'object',
        properties: { text: { type: 'string' } },
        required: ['text'],
      },
      tags: [],
      risk_level: 'write',
      cache_ttl_seconds: 0,
    });
    expect([tool.timeout_ms, tool.retries]).toEqual([1000, 2]);
  });

  it('turns a zod schema into the JSON Schema of the spec (input side, no $schema key)', () => {
    const tool = defineTool({
      name: 'greet',
      description: 'Greets.',
      input_schema: z.object({
        name: z.string().describe('Who'),
        times: z.number().int().default(1),
      }),
      execute: ({ name, times }) => `${name}${times}`,
    });
    expect(tool.input_schema).toEqual({
      type: 'object',
      properties: {
        name: { type: 'string', description: 'Who' },
        times: {
          type: 'integer',
          default: 1,
          minimum: Number.MIN_SAFE_INTEGER,
          maximum: Number.MAX_SAFE_INTEGER,
        },
      },
      required: ['name'],
    });
    expect(tool.zodSchema).toBeDefined();
  });

  it('takes timeoutMs (the deprecated timeout_ms still works); the tool carries both spellings', () => {
    const base = {
      name: 'x',
      description: 'x',
      input_schema: { type: 'object' },
      execute: () => 1,
    };
    const tool = defineTool({ ...base, timeoutMs: 250 });
    expect([tool.timeoutMs, tool.timeout_ms]).toEqual([250, 250]);
    expect(defineTool({ ...base, timeout_ms: 500 }).timeoutMs).toBe(500);
    expect(() => defineTool({ ...base, timeoutMs: 0 })).toThrow(
      /`timeoutMs` must be a positive number/,
    );
  });

  it('throws invalid_tool for definitions that cannot work', () => {
    const base = {
      name: 'x',
      description: 'x',
      input_schema: { type: 'object' },
      execute: () => 1,
    };
    for (const broken of [
      { ...base, name: '' },
      { ...base, execute: undefined },
      { ...base, input_schema: 'object' },
      { ...base, timeout_ms: 0 },
      { ...base, retries: 1.5 },
      { ...base, cache_ttl_seconds: -1 },
      { ...base, description: undefined },
      { ...base, input_schema: z.object({ when: z.date() }) },
    ]) {
      expect(() => defineTool(broken as never)).toThrow(ExecutorError);
    }
  });
});
