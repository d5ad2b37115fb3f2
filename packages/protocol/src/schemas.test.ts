import { describe, expect, it } from 'vitest';
import { ExecutionPlanSchema } from './execution-plan';
import { AssistantMessageSchema, MessageSchema, toolMessageFromResult } from './messages';
import { ToolCallSchema } from './tool-call';
import { isToolOutput, ToolOutputSchema, toolOutput } from './tool-output';
import { ToolErrorCodeSchema, ToolResultSchema } from './tool-result';
import { ToolSpecSchema } from './tool-spec';

describe('ToolSpecSchema', () => {
  it('applies the spec defaults and keeps wire names', () => {
    const spec = ToolSpecSchema.parse({
      name: 'calculator.add',
      description: 'Add two numbers',
      input_schema: { type: 'object' },
      cache_ttl_seconds: 60,
    });
    expect(spec).toEqual({
      name: 'calculator.add',
      description: 'Add two numbers',
      input_schema: { type: 'object' },
      tags: [],
      risk_level: 'read_only',
      cache_ttl_seconds: 60,
    });
  });

  it('rejects unknown risk levels and empty names', () => {
    expect(
      ToolSpecSchema.safeParse({
        name: 'x',
        description: '',
        input_schema: {},
        risk_level: 'risky',
      }).success,
    ).toBe(false);
    expect(ToolSpecSchema.safeParse({ name: '', description: '', input_schema: {} }).success).toBe(
      false,
    );
  });
});

describe('ToolCallSchema and ExecutionPlanSchema', () => {
  it('default arguments, depends_on and batch mode', () => {
    expect(ToolCallSchema.parse({ id: 'call_1', name: 'a' })).toEqual({
      id: 'call_1',
      name: 'a',
      arguments: {},
      depends_on: [],
    });
    expect(ExecutionPlanSchema.parse({ batches: [{ calls: [] }] })).toEqual({
      batches: [{ mode: 'parallel', calls: [] }],
      metadata: {},
    });
  });

  it('rejects arguments that are not JSON objects', () => {
    expect(ToolCallSchema.safeParse({ id: 'c', name: 'a', arguments: '{"a":1}' }).success).toBe(
      false,
    );
  });
});

describe('ToolResultSchema', () => {
  it('accepts a full result with error_code and media', () => {
    const result = ToolResultSchema.parse({
      call_id: 'call_1',
      tool_name: 'image.render',
      output: null,
      success: false,
      error: 'Approval required for image.render.',
      error_code: 'approval_required',
      approval: 'ask',
      skipped: true,
      created_at: '2026-11-30T12:00:00.000Z',
      images: [{ url: 'https://example.com/a.png', mime_type: 'image/png' }],
    });
    expect(result.cached).toBe(false);
    expect(result.images).toHaveLength(1);
  });

  it('lists exactly the documented error codes', () => {
    expect(ToolErrorCodeSchema.options).toEqual([
      'tool_error',
      'invalid_arguments',
      'unknown_tool',
      'invalid_plan',
      'dependency_failed',
      'timeout',
      'cancelled',
      'approval_required',
      'denied',
    ]);
  });

  it('rejects media items with neither url nor data', () => {
    const base = {
      call_id: 'c',
      tool_name: 't',
      success: true,
      created_at: '2026-11-30T12:00:00Z',
    };
    expect(
      ToolResultSchema.safeParse({ ...base, audios: [{ mime_type: 'audio/wav' }] }).success,
    ).toBe(false);
    expect(
      ToolResultSchema.safeParse({ ...base, files: [{ path: 'out/report.pdf' }] }).success,
    ).toBe(true);
  });
});

describe('toolOutput', () => {
  it('marks a ToolOutput without changing its JSON', () => {
    const output = toolOutput({
      content: 'a cat',
      images: [{ data: 'iVBOR', mime_type: 'image/png' }],
    });
    expect(isToolOutput(output)).toBe(true);
    expect(JSON.parse(JSON.stringify(output))).toEqual({
      content: 'a cat',
      images: [{ data: 'iVBOR', mime_type: 'image/png' }],
    });
    expect(ToolOutputSchema.safeParse(output).success).toBe(true);
  });

  it('does not mistake a plain value with a content key for a ToolOutput', () => {
    expect(isToolOutput({ content: 'x' })).toBe(false);
    expect(isToolOutput(null)).toBe(false);
  });
});

describe('messages', () => {
  const base = {
    call_id: 'call_1',
    tool_name: 'calculator.add',
    cached: false,
    skipped: false,
    created_at: '',
  };

  it('answers a call in the seed role: "tool" shape', () => {
    expect(toolMessageFromResult({ ...base, output: 42, success: true })).toEqual({
      role: 'tool',
      tool_call_id: 'call_1',
      name: 'calculator.add',
      content: '42',
    });
    expect(toolMessageFromResult({ ...base, output: 'plain text', success: true }).content).toBe(
      'plain text',
    );
    expect(toolMessageFromResult({ ...base, output: { a: [1] }, success: true }).content).toBe(
      '{"a":[1]}',
    );
  });

  it('sends failures as errors the model can read', () => {
    const message = toolMessageFromResult({
      ...base,
      output: null,
      success: false,
      error: '"a": expected number, got string "15"',
      error_code: 'invalid_arguments',
    });
    expect(message).toEqual({
      role: 'tool',
      tool_call_id: 'call_1',
      name: 'calculator.add',
      content: 'Error (invalid_arguments): "a": expected number, got string "15"',
      is_error: true,
    });
  });

  it('keeps a tool call whose arguments failed to parse', () => {
    const message = AssistantMessageSchema.parse({
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id: 'call_1',
          name: 'calculator.add',
          raw_arguments: '{"a":15,',
          arguments_error: 'Invalid JSON',
        },
      ],
    });
    expect(message.tool_calls?.[0]).toMatchObject({ arguments: {}, raw_arguments: '{"a":15,' });
    expect(MessageSchema.safeParse({ role: 'robot', content: 'x' }).success).toBe(false);
  });
});
