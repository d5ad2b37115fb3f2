import { createExecutor, defineTool, type ExecutorEvent, ToolExecutionError } from '@mtpx/executor';
import { toolOutput } from '@mtpx/protocol';
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { redisOptions, testPrefix } from './__fixtures__/test-redis';
import { createRemoteTools, type RemoteToolsOptions } from './remote-tools';
import { startToolWorker, type ToolWorker } from './tool-worker';
import { jobIdOf } from './wire';

const { prefix, cleanUp } = testPrefix('remote-tools');
const queue = 'unit';
const location = { connection: redisOptions, prefix, queue };

/** Resolves when `started` was called for `callId`; lets a test hold a call open. */
function gate() {
  const opened = new Map<string, () => void>();
  const started = new Map<string, Promise<void>>();
  return {
    started(callId: string): Promise<void> {
      let promise = started.get(callId);
      if (promise === undefined) {
        promise = new Promise((resolve) => opened.set(callId, resolve));
        started.set(callId, promise);
      }
      return promise;
    },
    open(callId: string): void {
      this.started(callId);
      opened.get(callId)?.();
    },
  };
}

/**
 * Awaits `promise`; if it has not settled 20 s on (a hang: vitest's own limit would name no
 * step), fails with `what` and where the run's two jobs stand in Redis.
 */
async function step<T>(what: string, promise: Promise<T>, jobIds: readonly string[]): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      Promise.all(jobIds.map(async (jobId) => `${jobId}: ${await queueClient.getJobState(jobId)}`))
        .then((states) =>
          reject(new Error(`Still waiting for ${what} after 20 s (${states.join(', ')}).`)),
        )
        .catch(reject);
    }, 20_000);
  });
  try {
    return await Promise.race([promise, hung]);
  } finally {
    clearTimeout(timer);
  }
}

const seen = gate();
const runsByCall = new Map<string, number>();
const keysByCall = new Map<string, string>();
const attemptsByCall = new Map<string, number[]>();

const add = defineTool({
  name: 'calc.add',
  description: 'Adds two numbers.',
  input_schema: z.object({ a: z.number(), b: z.number().default(0) }),
  execute: ({ a, b }, { call, idempotencyKey }) => {
    runsByCall.set(call.id, (runsByCall.get(call.id) ?? 0) + 1);
    keysByCall.set(call.id, idempotencyKey);
    return a + b;
  },
});
const fail = defineTool({
  name: 'calc.fail',
  description: 'Fails with a code; retryable on the first attempts when asked.',
  input_schema: { type: 'object', properties: { flaky: { type: 'integer' } } },
  retries: 2,
  execute: (args, { call, attempt }) => {
    attemptsByCall.set(call.id, [...(attemptsByCall.get(call.id) ?? []), attempt]);
    const flaky = (args.flaky as number | undefined) ?? 0;
    if (attempt <= flaky) {
      throw new ToolExecutionError({ message: 'busy', retryable: true, retryAfterMs: 1 });
    }
    if (flaky > 0) return { attempt };
    throw new ToolExecutionError({ message: 'Not allowed.', code: 'denied' });
  },
});
const slow = defineTool({
  name: 'calc.slow',
  description: 'Reports progress, then waits until cancelled; answers at once when told `again`.',
  input_schema: { type: 'object' },
  execute: (args, { call, reportProgress, signal }) => {
    if (args.again === true) return 'ran again';
    reportProgress({ message: 'working', completed: 1, total: 2 });
    seen.open(call.id);
    return new Promise((resolve) => {
      signal.addEventListener('abort', () => {
        seen.open(`aborted:${call.id}`);
        resolve('aborted');
      });
    });
  },
});
const picture = defineTool({
  name: 'calc.picture',
  description: 'Answers with an image.',
  input_schema: { type: 'object' },
  execute: () => toolOutput({ content: 'a dot', images: [{ url: 'https://example.com/dot.png' }] }),
});

const stuck = defineTool({
  name: 'calc.stuck',
  description: 'Never answers unless aborted; its time limit applies on the worker.',
  input_schema: { type: 'object' },
  timeout_ms: 50,
  execute: (_args, { signal }) =>
    new Promise((resolve) => signal.addEventListener('abort', () => resolve('too late'))),
});

let worker: ToolWorker;
const queueClient = new Queue(queue, { connection: redisOptions, prefix });
const queueEvents = new QueueEvents(queue, { connection: redisOptions, prefix });
const remote = createRemoteTools({ ...location, tools: [add, fail, slow, picture, stuck] });

beforeAll(async () => {
  worker = await startToolWorker({
    ...location,
    tools: [add, fail, slow, picture, stuck],
    concurrency: 1,
  });
  await Promise.all([remote.ready(), queueEvents.waitUntilReady()]);
});

afterAll(async () => {
  await remote.close();
  await worker.close();
  await Promise.all([queueClient.close(), queueEvents.close()]);
  await cleanUp();
});

describe('remote tools', () => {
  it('run calls on the worker, with $refs resolved and zod defaults applied there', async () => {
    const executor = createExecutor({ tools: remote.tools });
    const results = await executor.executeToolCalls(
      [
        { id: 'call_1', name: 'calc.add', arguments: { a: 2, b: 3 } },
        { id: 'call_2', name: 'calc.add', arguments: { a: { $ref: 'call_1' } } },
      ],
      { runId: 'run_refs' },
    );
    expect(results.map((result) => result.output)).toEqual([5, 5]);
    expect(keysByCall.get('call_2')).toMatch(/^idem_[0-9a-f]{64}$/);
  });

  it('carry the orchestrator idempotency key to the worker', async () => {
    let orchestratorKey = '';
    const keyReader = defineTool({
      name: 'calc.add',
      description: 'Same spec, run in-process: records the key the orchestrator computes.',
      input_schema: add.input_schema,
      execute: (_args, context) => {
        orchestratorKey = context.idempotencyKey;
        return 0;
      },
    });
    const call = { id: 'call_k', name: 'calc.add', arguments: { a: 1 } };
    await createExecutor({ tools: [keyReader] }).executeToolCalls([call], { runId: 'run_key' });
    await createExecutor({ tools: remote.tools }).executeToolCalls([call], { runId: 'run_key' });
    expect(keysByCall.get('call_k')).toBe(orchestratorKey);
  });

  it('never enqueue a call twice: the same run and call id get the one job and its answer', async () => {
    const executor = createExecutor({ tools: remote.tools });
    const call = { id: 'call_once', name: 'calc.add', arguments: { a: 1, b: 1 } };
    const first = await executor.executeToolCalls([call], { runId: 'run_once' });
    const second = await executor.executeToolCalls([call], { runId: 'run_once' });
    expect(first[0]?.output).toBe(2);
    expect(second[0]?.output).toBe(2);
    expect(runsByCall.get('call_once')).toBe(1);
    expect(jobIdOf('run_once', 'call_once')).toBe(jobIdOf('run_once', 'call_once'));
    expect(jobIdOf('run_once', 'call_once')).not.toBe(jobIdOf('run_twice', 'call_once'));
  });

  it('bring errors back with their code, and media with the output', async () => {
    const executor = createExecutor({ tools: remote.tools });
    const [denied, image, invalid] = await executor.executeToolCalls(
      [
        { id: 'call_e', name: 'calc.fail', arguments: {} },
        { id: 'call_p', name: 'calc.picture', arguments: {} },
        { id: 'call_i', name: 'calc.add', arguments: { a: 'two' } },
      ],
      { runId: 'run_errors' },
    );
    expect(denied).toMatchObject({ success: false, error_code: 'denied', error: 'Not allowed.' });
    expect(attemptsByCall.get('call_e')).toEqual([1]); // not retryable: one attempt
    expect(image).toMatchObject({
      output: 'a dot',
      images: [{ url: 'https://example.com/dot.png' }],
    });
    // The orchestrator checks the JSON Schema before anything is enqueued.
    expect(invalid).toMatchObject({ success: false, error_code: 'invalid_arguments' });
    expect(runsByCall.has('call_i')).toBe(false);
  });

  it("apply a tool's time limit on the worker, per attempt", async () => {
    const executor = createExecutor({ tools: remote.tools });
    const [result] = await executor.executeToolCalls(
      [{ id: 'call_t', name: 'calc.stuck', arguments: {} }],
      { runId: 'run_timeout' },
    );
    expect(result).toMatchObject({ success: false, error_code: 'timeout' });
    expect(result?.error).toContain('50 ms');
  });

  it('retry with BullMQ alone: attempts count on the worker, the executor does not stack its own', async () => {
    const executor = createExecutor({ tools: remote.tools });
    const events: ExecutorEvent[] = [];
    const [result] = await executor.executeToolCalls(
      [{ id: 'call_r', name: 'calc.fail', arguments: { flaky: 2 } }],
      { runId: 'run_retry', onEvent: (event) => events.push(event) },
    );
    expect(result).toMatchObject({ success: true, output: { attempt: 3 } });
    expect(attemptsByCall.get('call_r')).toEqual([1, 2, 3]);
    expect(events.filter((event) => event.type === 'call-retried')).toEqual([]);
  });

  it('carry progress back, and a cancelled run signals the running call and removes the waiting one', async () => {
    const executor = createExecutor({ tools: remote.tools });
    const events: ExecutorEvent[] = [];
    const runningId = jobIdOf('run_cancel', 'call_s1');
    const waitingId = jobIdOf('run_cancel', 'call_s2');
    const jobIds = [runningId, waitingId];
    const jobEvent = (name: 'waiting' | 'removed' | 'failed', id: string) =>
      new Promise<void>((resolve) => {
        queueEvents.on(name, ({ jobId }: { jobId: string }) => {
          if (jobId === id) resolve();
        });
      });
    const enqueued = jobEvent('waiting', waitingId);
    const removed = jobEvent('removed', waitingId);
    const failed = jobEvent('failed', runningId);
    let progressed: () => void = () => {};
    const progress = new Promise<void>((resolve) => {
      progressed = resolve;
    });
    const run = executor.start({
      runId: 'run_cancel',
      onEvent: (event) => {
        events.push(event);
        if (event.type === 'call-progress') progressed();
      },
    });
    run.add({ id: 'call_s1', name: 'calc.slow', arguments: {} });
    // Other arguments (identical calls would be joined), and it waits: the worker runs one at a time.
    run.add({ id: 'call_s2', name: 'calc.slow', arguments: { other: true } });
    run.end();
    // The first call runs, the second waits.
    await step(
      'call_s1 to report progress and call_s2 to wait',
      Promise.all([progress, enqueued]),
      jobIds,
    );
    expect(await queueClient.getJobState(waitingId)).toBe('waiting');
    run.cancel();
    const results = await step("the cancelled run's results", run.results, jobIds);
    expect(results.map((result) => result.error_code)).toEqual(['cancelled', 'cancelled']);
    await step('the worker to abort call_s1', seen.started('aborted:call_s1'), jobIds);
    await step("call_s2's job to be removed", removed, jobIds);
    expect(await queueClient.getJobState(waitingId)).toBe('unknown');

    // A cancelled call has no answer: the same run dispatching both again runs them afresh.
    await step("call_s1's job to fail", failed, jobIds);
    expect(await queueClient.getJobState(runningId)).toBe('failed');
    const again = await step(
      'both calls dispatched again',
      executor.executeToolCalls(
        [
          { id: 'call_s1', name: 'calc.slow', arguments: { again: true } },
          { id: 'call_s2', name: 'calc.slow', arguments: { other: true, again: true } },
        ],
        { runId: 'run_cancel' },
      ),
      jobIds,
    );
    expect(again.map((result) => result.output)).toEqual(['ran again', 'ran again']);
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'call-progress',
        callId: 'call_s1',
        progress: { message: 'working', completed: 1, total: 2 },
      }),
    );
  });

  it('run a cancelled call afresh when it is dispatched again, though a late failed event crosses the dispatch', async () => {
    const executor = createExecutor({ tools: remote.tools });
    const events = new Redis(redisOptions);
    try {
      for (let round = 0; round < 10; round += 1) {
        const runId = `run_late_${round}`;
        const callId = `call_late_${round}`;
        const jobId = jobIdOf(runId, callId);
        const failed = new Promise<void>((resolve) => {
          queueEvents.on('failed', (event: { jobId: string }) => {
            if (event.jobId === jobId) resolve();
          });
        });
        const run = executor.start({ runId });
        run.add({ id: callId, name: 'calc.slow', arguments: {} });
        run.end();
        await seen.started(callId);
        run.cancel();
        await run.results;
        await failed;
        const again = executor.executeToolCalls(
          [{ id: callId, name: 'calc.slow', arguments: { again: true } }],
          { runId },
        );
        // What a reader that fell behind delivers now: the cancelled job's own `failed` event.
        await events.xadd(`${prefix}:${queue}:events`, '*', 'event', 'failed', 'jobId', jobId);
        expect(await again).toEqual([
          expect.objectContaining({ success: true, output: 'ran again' }),
        ]);
      }
    } finally {
      await events.quit();
    }
  });
});

describe('deadline and shutdown options', () => {
  it('refuse deadlines and check intervals a timer cannot hold, with invalid_option', async () => {
    const tools = [add];
    const refused: Array<Partial<RemoteToolsOptions>> = [
      { callDeadlineMs: 0 },
      { callDeadlineMs: 2 ** 31 },
      { deadlines: { 'calc.add': 1.5 } },
      { deadlines: { 'calc.none': 1_000 } },
      { lostCheckMs: -1 },
    ];
    for (const options of refused) {
      expect(() => createRemoteTools({ ...location, tools, ...options })).toThrow(
        expect.objectContaining({ name: 'RemoteToolError', code: 'invalid_option' }),
      );
    }
    await expect(
      startToolWorker({ ...location, tools, shutdownDeadlineMs: -1, shutdownSignals: [] }),
    ).rejects.toMatchObject({ name: 'RemoteToolError', code: 'invalid_option' });
  });
});
