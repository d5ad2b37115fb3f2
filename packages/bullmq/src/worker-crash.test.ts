// The acceptance test of remote tools against the real Redis: 4 worker processes run a
// 200-call DAG; one is kill -9'd while it holds calls. Every call still has exactly one
// result, and the side effect (SET NX by idempotency key) happened exactly once per call.
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createExecutor, type ExecutorEvent } from '@mtpx/executor';
import { isJsonObject } from '@mtpx/protocol';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { effectTool, layeredDag } from './__fixtures__/dag-tools';
import { redisOptions, testPrefix } from './__fixtures__/test-redis';
import { startWorkerProcesses, stopWorkerProcesses } from './__fixtures__/worker-processes';
import { createRemoteTools } from './remote-tools';

const { prefix, cleanUp } = testPrefix('crash');
const queue = 'crash';
const redis = new Redis(redisOptions);
let workers: ChildProcess[] = [];

// Starting four tsx processes is most of this file's time; on a loaded CI machine it may
// take a while (the limit only catches a hang).
beforeAll(async () => {
  workers = await startWorkerProcesses(4, prefix, queue);
}, 120_000);

afterAll(async () => {
  await stopWorkerProcesses(workers);
  await cleanUp();
  await redis.quit();
});

describe('a worker killed mid-run', () => {
  it('leaves every call of a 200-call DAG with one result and one side effect', async () => {
    const calls = layeredDag(200, 20, 150);
    const remote = createRemoteTools({
      connection: redisOptions,
      prefix,
      queue,
      tools: [effectTool(redis, prefix)], // only its spec is used here
    });
    const victim = workers[0] as ChildProcess;
    const victimExited = once(victim, 'exit');
    let finished = 0;
    let killed = false;
    const finishedByCall = new Map<string, number>();
    const onEvent = (event: ExecutorEvent) => {
      if (event.type === 'call-finished') {
        finished += 1;
        finishedByCall.set(event.callId, (finishedByCall.get(event.callId) ?? 0) + 1);
      }
      // Mid-run, the moment the victim reports that it applied a call's effect (and
      // before that call answers), kill it.
      if (event.type === 'call-progress' && !killed && finished >= 40) {
        const data = event.progress.data;
        if (isJsonObject(data) && data.pid === victim.pid) {
          killed = true;
          victim.kill('SIGKILL');
        }
      }
    };
    const results = await createExecutor({ tools: remote.tools }).executeToolCalls(calls, {
      runId: `run-${prefix}`,
      onEvent,
    });
    await remote.close();
    await victimExited;

    expect(killed).toBe(true);
    expect(victim.signalCode).toBe('SIGKILL');
    // One result per call, each a success with the call's own answer.
    expect(results).toHaveLength(200);
    expect(new Set(results.map((result) => result.call_id)).size).toBe(200);
    for (const [index, result] of results.entries()) {
      expect(result, result.call_id).toMatchObject({ success: true, output: index });
    }
    expect([...finishedByCall.values()].every((count) => count === 1)).toBe(true);
    expect(finishedByCall.size).toBe(200);
    // Each job completed once in BullMQ.
    expect(await redis.zcard(`${prefix}:${queue}:completed`)).toBe(200);
    // The effect happened exactly once per call, though some calls ran twice: the ones
    // the victim held were taken up again by the other workers after the stall timeout (5 s).
    const effects = await redis.hgetall(`${prefix}:effects`);
    expect(Object.keys(effects)).toHaveLength(200);
    expect(Object.values(effects).every((count) => count === '1')).toBe(true);
    const attempts = Object.values(await redis.hgetall(`${prefix}:attempts`)).map(Number);
    expect(attempts).toHaveLength(200);
    expect(attempts.reduce((sum, count) => sum + count, 0)).toBeGreaterThan(200);
  }, 120_000);
});
