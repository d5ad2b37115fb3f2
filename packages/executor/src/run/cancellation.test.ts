import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { allOf, eventLog, gatedTool, waitForEvent } from '../__fixtures__/test-tools';
import { ToolExecutionError } from '../errors';
import { createExecutor } from '../executor';
import { defineTool } from '../tools/define-tool';

afterEach(() => vi.useRealTimers());

/** `flaky.retry`: fails with a retryable error every time, and may retry three times. */
function alwaysRetryableTool() {
  return defineTool({
    name: 'flaky.retry',
    description: 'Always retryable.',
    input_schema: { type: 'object' },
    retries: 3,
    execute: () => {
      throw new ToolExecutionError({ message: 'busy', retryable: true });
    },
  });
}

describe('cancellation', () => {
  it('aborts in-flight calls through their signals, skips unstarted ones, and resolves with every result', async () => {
    vi.useFakeTimers();
    const gated = gatedTool();
    const flaky = alwaysRetryableTool();
    const controller = new AbortController();
    const log = eventLog();
    const ready = waitForEvent(
      () => log.indexOf('call-retried:retry') >= 0 && log.indexOf('call-started:b') >= 0,
    );
    const running = createExecutor({
      tools: [gated.tool, flaky],
      timeoutMs: 60_000,
    }).executeToolCalls(
      [
        { id: 'a', name: 'test.wait', arguments: { key: 'a' } },
        { id: 'b', name: 'test.wait', arguments: { key: 'b' } },
        { id: 'retry', name: 'flaky.retry' },
        { id: 'after_a', name: 'test.wait', arguments: { key: 'c', value: { $ref: 'a' } } },
        {
          id: 'after_that',
          name: 'test.wait',
          arguments: { key: 'd', value: { $ref: 'after_a' } },
        },
      ],
      { signal: controller.signal, onEvent: allOf(log.onEvent, ready.handler) },
    );
    await ready.promise;
    expect(vi.getTimerCount()).toBe(3); // two time limits and one retry backoff
    controller.abort();
    const results = await running;
    expect(results.map((result) => [result.call_id, result.error_code, result.skipped])).toEqual([
      ['a', 'cancelled', false],
      ['b', 'cancelled', false],
      ['retry', 'cancelled', false],
      ['after_a', 'cancelled', true],
      ['after_that', 'cancelled', true],
    ]);
    expect(results[0]?.error).toBe('The run was cancelled while this call was running.');
    expect(results[3]?.error).toBe('The run was cancelled before this call started.');
    expect(gated.signals.get('a')?.aborted).toBe(true);
    expect(gated.signals.get('b')?.aborted).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
    expect(log.order().slice(-1)).toEqual(['plan-finished']);
    expect(log.order().filter((label) => label === 'call-skipped:after_a')).toHaveLength(1);
  });

  it('gives every call its own signal, so listeners never pile up on one target', async () => {
    const gated = gatedTool();
    const keys = Array.from({ length: 20 }, (_, index) => `k${index}`);
    const log = eventLog();
    const allStarted = waitForEvent(
      () => log.order().filter((label) => label.startsWith('call-started')).length === 20,
    );
    const run = createExecutor({ tools: [gated.tool] }).start({
      onEvent: allOf(log.onEvent, allStarted.handler),
    });
    for (const key of keys) run.add({ id: key, name: 'test.wait', arguments: { key } });
    run.end();
    await allStarted.promise;
    const signals = keys.map((key) => gated.signals.get(key));
    expect(new Set(signals).size).toBe(20);
    run.cancel();
    expect(signals.every((signal) => signal?.aborted)).toBe(true);
    expect((await run.results).every((result) => result.error_code === 'cancelled')).toBe(true);
  });

  it('cancels each copy of a deduplicated call in its own right', async () => {
    const gated = gatedTool();
    const run = createExecutor({ tools: [gated.tool] }).start();
    run.add({ id: 'first', name: 'test.wait', arguments: { key: 'same' } });
    run.add({ id: 'copy', name: 'test.wait', arguments: { key: 'same' } });
    run.cancel();
    run.end();
    expect(
      (await run.results).map((result) => [result.call_id, result.error_code, result.cached]),
    ).toEqual([
      ['first', 'cancelled', false],
      ['copy', 'cancelled', false],
    ]);
    expect(gated.calls.get('same')).toBe(1);
  });

  it('cancels everything when the signal is already aborted, and says why', async () => {
    const gated = gatedTool();
    const results = await createExecutor({ tools: [gated.tool] }).executeToolCalls(
      [{ id: 'a', name: 'test.wait', arguments: { key: 'a' } }],
      { signal: AbortSignal.abort('the user left') },
    );
    expect(results[0]).toMatchObject({ error_code: 'cancelled', skipped: true });
    expect(results[0]?.error).toBe(
      'The run was cancelled before this call started. Reason: the user left',
    );
    expect(gated.calls.size).toBe(0);
  });

  it('run.cancel() ends a streaming run; calls added afterwards are cancelled at once', async () => {
    const gated = gatedTool();
    const run = createExecutor({ tools: [gated.tool] }).start();
    run.add({ id: 'a', name: 'test.wait', arguments: { key: 'a' } });
    run.cancel(new Error('stop'));
    run.add({ id: 'b', name: 'test.wait', arguments: { key: 'b' } });
    run.end();
    const results = await run.results;
    expect(results.map((result) => [result.error_code, result.skipped])).toEqual([
      ['cancelled', false],
      ['cancelled', true],
    ]);
    expect(results[0]?.error).toContain('Reason: stop');
    expect(run.signal.aborted).toBe(true);
  });

  it('cancels a call waiting for approval', async () => {
    const approvalAsked = waitForEvent((event) => event.type === 'call-started');
    const risky = defineTool({
      name: 'db.drop',
      description: 'Drops.',
      risk_level: 'destructive',
      input_schema: { type: 'object' },
      execute: () => 'dropped',
    });
    const controller = new AbortController();
    const running = createExecutor({
      tools: [risky],
      approve: () => new Promise<boolean>(() => {}),
    }).executeToolCalls([{ id: 'drop', name: 'db.drop' }], {
      signal: controller.signal,
      onEvent: approvalAsked.handler,
    });
    await approvalAsked.promise;
    controller.abort();
    expect((await running)[0]?.error_code).toBe('cancelled');
  });

  it('cancelling from a call-retried handler leaves no backoff timer behind (regression)', async () => {
    vi.useFakeTimers();
    const flaky = alwaysRetryableTool();
    const run = createExecutor({ tools: [flaky] }).start({
      onEvent: (event) => {
        if (event.type === 'call-retried') run.cancel();
      },
    });
    run.add({ id: 'retry', name: 'flaky.retry' });
    run.end();
    expect((await run.results)[0]?.error_code).toBe('cancelled');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a call cancelled from its call-started handler never runs its tool (regression)', async () => {
    const gated = gatedTool();
    const run = createExecutor({ tools: [gated.tool], timeoutMs: 60_000 }).start({
      onEvent: (event) => {
        if (event.type === 'call-started') run.cancel();
      },
    });
    run.add({ id: 'a', name: 'test.wait', arguments: { key: 'a' } });
    run.end();
    expect((await run.results)[0]?.error_code).toBe('cancelled');
    expect(gated.calls.size).toBe(0);
  });

  it('stops listening to the caller signal once the run is done', async () => {
    const controller = new AbortController();
    const remove = vi.spyOn(controller.signal, 'removeEventListener');
    await createExecutor({ tools: [] }).executeToolCalls([], { signal: controller.signal });
    expect(remove).toHaveBeenCalledWith('abort', expect.any(Function));
  });

  it('leaves nothing that keeps the process alive: a cancelled child process exits by itself', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(import.meta.dirname, '../__fixtures__/cancel-child.ts')],
      {
        cwd: join(import.meta.dirname, '../..'),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    // A safety net only: a child that hangs is killed so the suite ends, and the test fails.
    let killed = false;
    const safety = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, 60_000);
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    clearTimeout(safety);
    expect(killed, `the child did not exit by itself; stderr: ${stderr}`).toBe(false);
    expect(code, stderr).toBe(0);
    const results = JSON.parse(stdout) as Array<[string, string, boolean, string]>;
    expect(results.map(([id, code, skipped]) => [id, code, skipped])).toEqual([
      ['wait', 'cancelled', false],
      ['deaf', 'cancelled', false],
      ['retry', 'cancelled', false],
      ['after_wait', 'cancelled', true],
    ]);
    expect(results[0]?.[3]).toBe(
      'The run was cancelled while this call was running. Reason: user pressed stop',
    );
  }, 90_000);
});
