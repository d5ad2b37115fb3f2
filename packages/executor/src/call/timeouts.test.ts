import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { allOf, deferred, eventLog, waitForEvent } from '../__fixtures__/test-tools';
import { createExecutor } from '../executor';
import { defineTool } from '../tools/define-tool';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

/** A tool that never finishes on its own; it records the signal it was given. */
function hangingTool(name: string, options: { timeoutMs?: number; honoursSignal?: boolean } = {}) {
  const signals: AbortSignal[] = [];
  const tool = defineTool({
    name,
    description: 'Never finishes.',
    input_schema: { type: 'object' },
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    execute: (_args, { signal }) => {
      signals.push(signal);
      const never = deferred<string>();
      if (options.honoursSignal !== false)
        signal.addEventListener('abort', () => never.reject(signal.reason));
      return never.promise;
    },
  });
  return { tool, signals };
}

describe('timeouts', () => {
  it("fires the tool's signal and fails the call with error_code timeout", async () => {
    const { tool, signals } = hangingTool('slow.op', { timeoutMs: 1_000 });
    const started = waitForEvent((event) => event.type === 'call-started');
    const running = createExecutor({ tools: [tool] }).executeToolCalls(
      [{ id: 'call_1', name: 'slow.op' }],
      {
        onEvent: started.handler,
      },
    );
    await started.promise;
    await vi.advanceTimersByTimeAsync(999);
    expect(signals[0]?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const [result] = await running;
    expect(result).toMatchObject({ success: false, skipped: false, error_code: 'timeout' });
    expect(result?.error).toBe(
      'The call did not finish within 1000 ms and was stopped; try a smaller request or a different approach.',
    );
    expect(signals[0]?.aborted).toBe(true);
    expect(signals[0]?.reason).toMatchObject({ name: 'TimeoutError' });
  });

  it("applies the executor's default to tools without their own, and a tool's own limit wins", async () => {
    const own = hangingTool('slow.own', { timeoutMs: 5_000 });
    const plain = hangingTool('slow.plain');
    const log = eventLog();
    const bothStarted = waitForEvent(
      () => log.events.filter((event) => event.type === 'call-started').length === 2,
    );
    const running = createExecutor({
      tools: [own.tool, plain.tool],
      timeoutMs: 2_000,
    }).executeToolCalls(
      [
        { id: 'own', name: 'slow.own' },
        { id: 'plain', name: 'slow.plain' },
      ],
      { onEvent: allOf(log.onEvent, bothStarted.handler) },
    );
    await bothStarted.promise;
    await vi.advanceTimersByTimeAsync(2_000);
    expect(log.indexOf('call-finished:plain')).toBeGreaterThan(0);
    expect(log.indexOf('call-finished:own')).toBe(-1);
    await vi.advanceTimersByTimeAsync(3_000);
    expect((await running).map((result) => result.error_code)).toEqual(['timeout', 'timeout']);
  });

  it('times out a tool that ignores its signal', async () => {
    const { tool } = hangingTool('slow.deaf', { timeoutMs: 100, honoursSignal: false });
    const started = waitForEvent((event) => event.type === 'call-started');
    const running = createExecutor({ tools: [tool] }).executeToolCalls(
      [{ id: 'call_1', name: 'slow.deaf' }],
      {
        onEvent: started.handler,
      },
    );
    await started.promise;
    await vi.advanceTimersByTimeAsync(100);
    expect((await running)[0]?.error_code).toBe('timeout');
  });

  it('clears the timer of a call that finishes in time', async () => {
    const quick = defineTool({
      name: 'quick',
      description: 'Fast.',
      input_schema: { type: 'object' },
      timeoutMs: 60_000,
      execute: async () => 'done',
    });
    const [result] = await createExecutor({ tools: [quick] }).executeToolCalls([
      { id: 'call_1', name: 'quick' },
    ]);
    expect(result?.output).toBe('done');
    expect(vi.getTimerCount()).toBe(0);
  });
});
