// A worker process sent SIGTERM mid-call: with time enough it finishes its calls and
// exits; past its deadline it hands the running ones back to the queue, where another
// worker runs them. No call is lost, none finishes twice (body executions counted).
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createExecutor, type ExecutorEvent } from '@mtpx/executor';
import { isJsonObject } from '@mtpx/protocol';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { effectTool, layeredDag } from './__fixtures__/dag-tools';
import { OwnRedis } from './__fixtures__/own-redis';
import { redisOptions, testPrefix } from './__fixtures__/test-redis';
import { startWorkerProcesses, stopWorkerProcesses } from './__fixtures__/worker-processes';
import { createRemoteTools } from './remote-tools';
import type { ToolWorkerClosed } from './worker-shutdown';

const durable = new Redis(redisOptions);
const started: ChildProcess[] = [];
const prefixes: Array<() => Promise<void>> = [];

afterAll(async () => {
  await stopWorkerProcesses(started);
  for (const cleanUp of prefixes) await cleanUp();
  await durable.quit();
});

/** The `closed {...}` line a worker process prints once SIGTERM has closed it. */
function closedReport(child: ChildProcess): Promise<ToolWorkerClosed> {
  return new Promise((resolve, reject) => {
    child.once('close', (code, signal) =>
      reject(new Error(`the worker exited (${code ?? signal}) without its report`)),
    );
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = /^closed (.*)$/m.exec(output);
      if (line) resolve(JSON.parse(line[1] as string) as ToolWorkerClosed);
    });
  });
}

/**
 * Runs 16 independent calls of `ms` on a victim (with `shutdownDeadlineMs`) and a helper
 * worker; SIGTERMs the victim the moment it reports running a call.
 */
async function runWithSigterm(name: string, shutdownDeadlineMs: number, ms: number) {
  const { prefix, cleanUp } = testPrefix(name);
  prefixes.push(cleanUp);
  const queue = name;
  const [victim] = await startWorkerProcesses(1, prefix, queue, { shutdownDeadlineMs });
  const [helper] = await startWorkerProcesses(1, prefix, queue);
  started.push(victim as ChildProcess, helper as ChildProcess);
  const report = closedReport(victim as ChildProcess);
  const exited = once(victim as ChildProcess, 'exit');
  const remote = createRemoteTools({
    connection: redisOptions,
    prefix,
    queue,
    tools: [effectTool(durable, prefix)],
  });
  let signalled = false;
  const onEvent = (event: ExecutorEvent) => {
    if (event.type !== 'call-progress' || signalled) return;
    const data = event.progress.data;
    if (isJsonObject(data) && data.pid === victim?.pid) {
      signalled = true;
      victim?.kill('SIGTERM');
    }
  };
  const results = await createExecutor({ tools: remote.tools }).executeToolCalls(
    layeredDag(16, 16, ms),
    { runId: `run-${prefix}`, onEvent },
  );
  await remote.close();
  const [code] = await exited;
  const count = async (hash: string) =>
    Object.fromEntries(
      Object.entries(await durable.hgetall(`${prefix}:${hash}`)).map(([key, value]) => [
        key,
        Number(value),
      ]),
    );
  return {
    signalled,
    code,
    results,
    closed: await report,
    starts: await count('attempts'),
    completions: await count('completed'),
    effects: await count('effects'),
  };
}

describe('a worker sent SIGTERM mid-call', () => {
  it('finishes its running calls within the deadline, takes no new one, and exits', async () => {
    const run = await runWithSigterm('sigterm-finish', 60_000, 400);
    expect(run.signalled).toBe(true);
    expect(run.code).toBe(0);
    expect(run.closed.handedBack).toEqual([]);
    expect(run.closed.finished.length).toBeGreaterThan(0);
    for (const [index, result] of run.results.entries()) {
      expect(result, result.call_id).toMatchObject({ success: true, output: index });
    }
    // Each call's body ran once, to its end: nothing lost, nothing run twice.
    expect(Object.keys(run.starts)).toHaveLength(16);
    expect(Object.values(run.starts).every((count) => count === 1)).toBe(true);
    expect(Object.values(run.completions).every((count) => count === 1)).toBe(true);
    expect(Object.keys(run.completions)).toHaveLength(16);
  }, 120_000);

  it('hands back the calls still running at its deadline; another worker runs them, once', async () => {
    const run = await runWithSigterm('sigterm-hand-back', 100, 1_500);
    expect(run.signalled).toBe(true);
    expect(run.code).toBe(0);
    expect(run.closed.handedBack.length).toBeGreaterThan(0);
    for (const [index, result] of run.results.entries()) {
      expect(result, result.call_id).toMatchObject({ success: true, output: index });
    }
    // Every body ran to its end exactly once; the handed-back ones had started once before.
    expect(Object.keys(run.completions)).toHaveLength(16);
    expect(Object.values(run.completions).every((count) => count === 1)).toBe(true);
    const startedTwice = Object.values(run.starts).filter((count) => count === 2).length;
    expect(startedTwice).toBe(run.closed.handedBack.length);
    expect(Object.values(run.effects).every((count) => count === 1)).toBe(true);
  }, 120_000);

  it('ends even with Redis gone: hands its calls back as far as it can, drops its connections, exits', async () => {
    const { prefix, cleanUp } = testPrefix('sigterm-redis-down');
    prefixes.push(cleanUp);
    const ownRedis = await OwnRedis.start();
    try {
      const [victim] = await startWorkerProcesses(1, prefix, 'down', {
        queuePort: ownRedis.port,
        shutdownDeadlineMs: 200,
      });
      started.push(victim as ChildProcess);
      const report = closedReport(victim as ChildProcess);
      const exited = once(victim as ChildProcess, 'exit');
      const remote = createRemoteTools({
        connection: { ...redisOptions, port: ownRedis.port },
        prefix,
        queue: 'down',
        tools: [effectTool(durable, prefix)],
        callDeadlineMs: 3_000,
      });
      let signalled = false;
      const results = await createExecutor({ tools: remote.tools }).executeToolCalls(
        layeredDag(4, 4, 60_000),
        {
          runId: `run-${prefix}`,
          onEvent: (event) => {
            if (event.type !== 'call-progress' || signalled) return;
            signalled = true;
            void ownRedis.kill().then(() => victim?.kill('SIGTERM'));
          },
        },
      );
      await remote.close();
      const [code] = await exited;
      expect(code).toBe(0);
      expect((await report).handedBack.length).toBeGreaterThan(0);
      // The calls ended at their deadline, none answered (their tool never finished).
      expect(results.map((result) => result.error_code)).toEqual([
        'timeout',
        'timeout',
        'timeout',
        'timeout',
      ]);
      expect(await durable.hgetall(`${prefix}:completed`)).toEqual({});
    } finally {
      await ownRedis.stop();
    }
  }, 120_000);
});
