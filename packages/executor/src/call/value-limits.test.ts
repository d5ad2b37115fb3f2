import type { JsonValue } from '@mtpx/protocol';
import { describe, expect, it } from 'vitest';
import { createExecutor } from '../executor';
import { defineTool } from '../tools/define-tool';
import { boundedToolCall } from './value-limits';

function nested(depth: number): JsonValue {
  let value: JsonValue = 1;
  for (let level = 0; level < depth; level++) value = { a: value };
  return value;
}

function tools(ran: string[]) {
  return [
    defineTool({
      name: 'echo',
      description: 'Returns its arguments.',
      input_schema: { type: 'object' },
      execute: (args) => {
        ran.push('echo');
        return args;
      },
    }),
    defineTool({
      name: 'deep',
      description: 'Returns a deep value.',
      input_schema: { type: 'object', properties: { depth: { type: 'number' } } },
      execute: ({ depth }) => nested(depth as number),
    }),
  ];
}

describe('bounded arguments and outputs', () => {
  it('a call whose arguments nest 100,000 levels deep is invalid_arguments and never runs', async () => {
    const ran: string[] = [];
    const executor = createExecutor({ tools: tools(ran) });
    const [result, next] = await executor.executeToolCalls([
      { id: 'call_1', name: 'echo', arguments: { x: { $ref: 'call_0' }, deep: nested(100_000) } },
      { id: 'call_2', name: 'echo', arguments: { x: { $ref: 'call_1' } } },
    ]);
    expect(result).toMatchObject({ success: false, error_code: 'invalid_arguments' });
    expect(result?.error).toMatch(/deeper than 64 levels/);
    expect(next).toMatchObject({ success: false, error_code: 'dependency_failed' });
    expect(ran).toEqual([]);
  });

  it('cyclic and oversized arguments are refused the same way', async () => {
    const ran: string[] = [];
    const executor = createExecutor({ tools: tools(ran), limits: { maxArgumentBytes: 1000 } });
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    const results = await executor.executeToolCalls([
      { id: 'call_1', name: 'echo', arguments: cycle as never },
      { id: 'call_2', name: 'echo', arguments: { text: 'x'.repeat(2000) } },
      { id: 'call_3', name: 'echo', arguments: { n: 10n } as never },
    ]);
    expect(results.map((result) => result.error_code)).toEqual([
      'invalid_arguments',
      'invalid_arguments',
      'invalid_arguments',
    ]);
    expect(results[1]?.error).toMatch(/larger than 1000 bytes/);
    expect(ran).toEqual([]);
  });

  it('an output deeper than the limit becomes a tool_error result', async () => {
    const executor = createExecutor({ tools: tools([]) });
    const [shallow, deep] = await executor.executeToolCalls([
      { id: 'call_1', name: 'deep', arguments: { depth: 10 } },
      { id: 'call_2', name: 'deep', arguments: { depth: 5_000 } },
    ]);
    expect(shallow).toMatchObject({ success: true });
    expect(deep).toMatchObject({ success: false, error_code: 'tool_error', output: null });
    expect(deep?.error).toMatch(/output cannot be used: it nests deeper than 64 levels/);
  });

  it('refuses limits that cannot work', () => {
    expect(() => createExecutor({ tools: [], limits: { maxDepth: 0 } })).toThrow(
      /limits.maxDepth must be a positive integer/,
    );
  });
});

describe('boundedToolCall: the call a caller may keep, by the executor’s own bounds', () => {
  it('keeps a call within the limits as is; replaces one past them by a stand-in the executor answers', async () => {
    const ran: string[] = [];
    const executor = createExecutor({ tools: tools(ran), limits: { maxDepth: 8 } });
    const limits = executor.limits as NonNullable<typeof executor.limits>;
    const within = { id: 'call_1', name: 'echo', arguments: { a: 1 }, depends_on: [] };
    expect(boundedToolCall(within, limits)).toBe(within);
    const deep = { id: 'call_2', name: 'echo', arguments: { a: nested(20) }, depends_on: [] };
    const kept = boundedToolCall(deep as never, limits);
    expect(kept).toMatchObject({ id: 'call_2', name: 'echo', arguments: {}, depends_on: [] });
    expect(kept.arguments_error).toMatch(/^The arguments cannot be used: /);
    // The same call is within the default limits' depth of 64.
    expect(boundedToolCall(deep as never)).toBe(deep);
    const [result] = await executor.executeToolCalls([kept]);
    expect(result).toMatchObject({ error_code: 'invalid_arguments', success: false });
    expect(ran).toEqual([]);
  });
});
