import { planFromToolCalls, type ToolCallInput } from '@mtpx/protocol';
import { describe, expect, it } from 'vitest';
import { createExecutor } from '../executor';
import { calculatorToolkit } from '../toolkits';

/**
 * 10,000 calls in chains of ten: each chain starts at its own number and adds 1 per link,
 * so call i's output is (i - i % 10) * 1000 + i % 10.
 */
function chainedCalls(
  count: number,
  chainLength: number,
): { calls: ToolCallInput[]; expected: number[] } {
  const calls: ToolCallInput[] = [];
  const expected: number[] = [];
  for (let index = 0; index < count; index++) {
    const position = index % chainLength;
    const start = (index - position) * 1000;
    calls.push(
      position === 0
        ? { id: `call_${index}`, name: 'calculator.add', arguments: { a: start, b: 0 } }
        : {
            id: `call_${index}`,
            name: 'calculator.add',
            arguments: { a: 1, b: { $ref: `call_${index - 1}` } },
          },
    );
    expected.push(start + position);
  }
  return { calls, expected };
}

describe('a 10,000-call plan', () => {
  const { calls, expected } = chainedCalls(10_000, 10);

  it('completes with every result correct, fed as one response', async () => {
    const results = await createExecutor({ tools: [calculatorToolkit()] }).executeToolCalls(calls);
    expect(results).toHaveLength(10_000);
    expect(results.map((result) => result.output)).toEqual(expected);
    expect(results.every((result) => result.success && result.call_id !== '')).toBe(true);
  });

  it('completes with every result correct as a derived plan, eager and in batches', async () => {
    const plan = planFromToolCalls(calls);
    const byId = new Map(calls.map((call, index) => [call.id, expected[index]]));
    for (const scheduling of ['eager', 'batches'] as const) {
      const results = await createExecutor({ tools: [calculatorToolkit()], scheduling }).execute(
        plan,
      );
      expect(results).toHaveLength(10_000);
      expect(
        results.every((result) => result.success && result.output === byId.get(result.call_id)),
      ).toBe(true);
    }
  });

  it('runs a single 10,000-long dependency chain, and propagates a failure down all of it', async () => {
    const { calls: longChain, expected: sums } = chainedCalls(10_000, 10_000);
    const executor = createExecutor({ tools: [calculatorToolkit()] });
    const results = await executor.executeToolCalls(longChain);
    expect(results.at(-1)?.output).toBe(sums.at(-1));
    const broken = [
      { id: 'call_0', name: 'calculator.divide', arguments: { a: 1, b: 0 } },
      ...longChain.slice(1),
    ];
    const failed = await executor.executeToolCalls(broken);
    expect(failed.slice(1).every((result) => result.error_code === 'dependency_failed')).toBe(true);
  });
});
