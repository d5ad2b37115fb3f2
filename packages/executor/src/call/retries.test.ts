import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { eventLog, waitForEvent } from '../__fixtures__/test-tools';
import { ToolExecutionError } from '../errors';
import type { CallRetriedEvent } from '../events/events';
import { createExecutor } from '../executor';
import { defineTool } from '../tools/define-tool';
import { resolveRetryBackoff, retryDelay } from './retry-backoff';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

/** Fails with `errors[attempt - 1]` while there is one, then returns the attempt number. */
function scriptedTool(errors: unknown[], retries: number) {
  const attempts: number[] = [];
  const tool = defineTool({
    name: 'flaky.op',
    description: 'Fails as scripted.',
    input_schema: { type: 'object' },
    retries,
    execute: async (_args, { attempt }) => {
      attempts.push(attempt);
      const error = errors[attempt - 1];
      if (error !== undefined) throw error;
      return attempt;
    },
  });
  return { tool, attempts };
}

const retryable = (message: string, retryAfterMs?: number) =>
  new ToolExecutionError({
    message,
    retryable: true,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  });

describe('retries', () => {
  it('retries retryable failures with exponential backoff, then succeeds', async () => {
    const { tool, attempts } = scriptedTool([retryable('busy'), retryable('still busy')], 3);
    const log = eventLog();
    const running = createExecutor({
      tools: [tool],
      retryBackoff: { initialDelayMs: 100, factor: 2, jitter: false },
    }).executeToolCalls([{ id: 'call_1', name: 'flaky.op' }], { onEvent: log.onEvent });
    await vi.advanceTimersByTimeAsync(99);
    expect(attempts).toEqual([1]);
    await vi.advanceTimersByTimeAsync(1);
    expect(attempts).toEqual([1, 2]);
    await vi.advanceTimersByTimeAsync(200);
    const [result] = await running;
    expect(result).toMatchObject({ success: true, output: 3 });
    const retried = log.events.filter(
      (event): event is CallRetriedEvent => event.type === 'call-retried',
    );
    expect(retried.map(({ attempt, delayMs, error }) => ({ attempt, delayMs, error }))).toEqual([
      { attempt: 1, delayMs: 100, error: 'busy' },
      { attempt: 2, delayMs: 200, error: 'still busy' },
    ]);
  });

  it('gives up after the last retry with the last error', async () => {
    const { tool, attempts } = scriptedTool([retryable('a'), retryable('b'), retryable('c')], 2);
    const running = createExecutor({
      tools: [tool],
      retryBackoff: { jitter: false },
    }).executeToolCalls([{ id: 'call_1', name: 'flaky.op' }]);
    await vi.advanceTimersByTimeAsync(10_000);
    const [result] = await running;
    expect(result).toMatchObject({ success: false, error_code: 'tool_error', error: 'c' });
    expect(attempts).toEqual([1, 2, 3]);
  });

  it('never retries errors the tool did not mark retryable', async () => {
    const { tool, attempts } = scriptedTool([new Error('bad input'), undefined], 5);
    const [result] = await createExecutor({ tools: [tool] }).executeToolCalls([
      { id: 'call_1', name: 'flaky.op' },
    ]);
    expect(result?.error).toBe('bad input');
    expect(attempts).toEqual([1]);
  });

  it("waits the tool's own retryAfterMs when it gives one", async () => {
    const { tool, attempts } = scriptedTool([retryable('rate limited', 1_500)], 1);
    const retried = waitForEvent((event) => event.type === 'call-retried');
    const running = createExecutor({ tools: [tool] }).executeToolCalls(
      [{ id: 'call_1', name: 'flaky.op' }],
      {
        onEvent: retried.handler,
      },
    );
    expect(((await retried.promise) as CallRetriedEvent).delayMs).toBe(1_500);
    await vi.advanceTimersByTimeAsync(1_499);
    expect(attempts).toEqual([1]);
    await vi.advanceTimersByTimeAsync(1);
    expect((await running)[0]?.output).toBe(2);
  });
});

describe('retryDelay', () => {
  it('grows exponentially up to the cap, with jitter over [delay/2, delay]', () => {
    const backoff = resolveRetryBackoff({ initialDelayMs: 100, factor: 3, maxDelayMs: 1_000 });
    expect([1, 2, 3, 4].map((retry) => retryDelay(backoff, retry, undefined, () => 1))).toEqual([
      100, 300, 900, 1_000,
    ]);
    expect(retryDelay(backoff, 2, undefined, () => 0)).toBe(150);
    expect(() => resolveRetryBackoff({ factor: -1 })).toThrow(/factor/);
  });
});
