// Redis without persistence, kill -9'd and restarted mid-run (a Redis server of the test's
// own, never the machine's): every unfinished call ends — answered, or failed as `job_lost`
// (or skipped behind one) — none is reported successful that did not run, and the run,
// resumed from what its journal kept, finishes with one effect per call.
import type { ChildProcess } from 'node:child_process';
import {
  createExecutor,
  type ExecutorEvent,
  type KnownResultSource,
  type ResultRecorder,
} from '@mtpx/executor';
import type { ToolResult } from '@mtpx/protocol';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { effectTool, layeredDag } from './__fixtures__/dag-tools';
import { OwnRedis } from './__fixtures__/own-redis';
import { redisOptions, testPrefix } from './__fixtures__/test-redis';
import { startWorkerProcesses, stopWorkerProcesses } from './__fixtures__/worker-processes';
import { type RemoteCallStateName, remoteCallStateOf } from './remote-call-state';
import { createRemoteTools } from './remote-tools';

const { prefix, cleanUp } = testPrefix('restart');
const queue = 'restart';
/** Effects and counts live in the machine's Redis (under the test's prefix): they survive. */
const durable = new Redis(redisOptions);
const callDeadlineMs = 60_000;
let ownRedis: OwnRedis;
let workers: ChildProcess[] = [];

beforeAll(async () => {
  ownRedis = await OwnRedis.start();
  workers = await startWorkerProcesses(2, prefix, queue, { queuePort: ownRedis.port });
}, 120_000);

afterAll(async () => {
  await stopWorkerProcesses(workers);
  await ownRedis?.stop();
  await cleanUp();
  await durable.quit();
});

/** A run journal in the executor's terms: results of calls that succeeded, by call id. */
/** A journal as `@mtpx/agent`'s keeps one: every result, a retryable failure run again on resume. */
function runJournal() {
  const results = new Map<string, ToolResult>();
  const onResult: ResultRecorder = (call, result) => {
    const stored = results.get(call.id);
    if (stored === undefined || stored.retryable === true) results.set(call.id, result);
  };
  const knownResult: KnownResultSource = (call) => {
    const stored = results.get(call.id);
    return stored?.retryable === true ? undefined : stored;
  };
  return { results, onResult, knownResult };
}

describe('Redis kill -9 and restarted empty mid-run', () => {
  it('ends every call (answer or job_lost), reports no success that did not run, and the run resumes', async () => {
    const calls = layeredDag(60, 10, 300);
    const runId = `run-${prefix}`;
    const remote = createRemoteTools({
      connection: { ...redisOptions, port: ownRedis.port },
      prefix,
      queue,
      tools: [effectTool(durable, prefix)],
      callDeadlineMs,
      lostCheckMs: 500,
    });
    const executor = createExecutor({ tools: remote.tools });
    const journal = runJournal();
    const states = new Map<RemoteCallStateName, Set<string>>();
    const durations: number[] = [];
    let finished = 0;
    let restarted: Promise<void> | undefined;
    const onEvent = (event: ExecutorEvent) => {
      const remoteState = remoteCallStateOf(event);
      if (remoteState !== undefined && event.type === 'call-progress') {
        const callIds = states.get(remoteState.state) ?? new Set();
        callIds.add(event.callId);
        states.set(remoteState.state, callIds);
      }
      if (event.type === 'call-finished') {
        finished += 1;
        durations.push(event.durationMs);
        // Mid-run (calls of the second layer running, more waiting): kill Redis, start it again empty.
        if (finished === 15) restarted = ownRedis.kill().then(() => ownRedis.restart());
      }
    };
    const results = await executor.executeToolCalls(calls, {
      runId,
      onEvent,
      onResult: journal.onResult,
    });
    await restarted;

    expect(results).toHaveLength(60);
    // Every call ended within its deadline (none by the deadline itself: the jobs were found lost).
    expect(Math.max(...durations)).toBeLessThan(callDeadlineMs);
    expect(results.some((result) => result.error_code === 'timeout')).toBe(false);
    const effects = await durable.hgetall(`${prefix}:effects`);
    const lost: string[] = [];
    for (const [index, result] of results.entries()) {
      if (result.success) {
        // Reported successful only if it ran: its effect is there, its answer its own.
        expect(result.output, result.call_id).toBe(index);
        expect(effects[result.call_id], result.call_id).toBe('1');
      } else if (result.skipped) {
        expect(result.error_code, result.call_id).toBe('dependency_failed');
      } else {
        expect(result.error, result.call_id).toContain('no longer exists in Redis');
        expect(result.retryable, result.call_id).toBe(true);
        lost.push(result.call_id);
      }
    }
    expect(lost.length).toBeGreaterThan(0);
    // The state of each call was told as it changed.
    expect(states.get('disconnected')?.size ?? 0).toBeGreaterThan(0);
    expect(states.get('reconnected')?.size ?? 0).toBeGreaterThan(0);
    expect([...(states.get('lost') ?? [])].sort()).toEqual([...lost].sort());

    // The run resumed: answered calls from the journal, the others dispatched again.
    const resumed = await executor.executeToolCalls(calls, {
      runId,
      knownResult: journal.knownResult,
      onResult: journal.onResult,
    });
    await remote.close();
    for (const [index, result] of resumed.entries()) {
      expect(result, result.call_id).toMatchObject({ success: true, output: index });
    }
    // One effect per call, though the lost calls that had started ran again.
    const after = await durable.hgetall(`${prefix}:effects`);
    expect(Object.keys(after)).toHaveLength(60);
    expect(Object.values(after).every((count) => count === '1')).toBe(true);
  }, 180_000);

  it('rides out dropped connections while Redis keeps its data: every call answered once', async () => {
    const calls = layeredDag(30, 10, 200);
    const remote = createRemoteTools({
      connection: { ...redisOptions, port: ownRedis.port },
      prefix,
      queue,
      tools: [effectTool(durable, prefix)],
      lostCheckMs: 500,
    });
    const admin = new Redis({ ...redisOptions, port: ownRedis.port });
    const states = new Set<string>();
    let finished = 0;
    let dropped: Promise<unknown> | undefined;
    const results = await createExecutor({ tools: remote.tools }).executeToolCalls(calls, {
      runId: `drop-${prefix}`,
      onEvent: (event) => {
        const remoteState = remoteCallStateOf(event);
        if (remoteState !== undefined) states.add(remoteState.state);
        // Mid-run: every client's connection (the orchestrator's and the workers') is cut.
        if (event.type === 'call-finished' && ++finished === 10) {
          dropped = admin.client('KILL', 'SKIPME', 'yes', 'TYPE', 'normal');
        }
      },
    });
    await dropped;
    await Promise.all([remote.close(), admin.quit()]);
    for (const [index, result] of results.entries()) {
      expect(result, result.call_id).toMatchObject({ success: true, output: index });
    }
    expect(states).toContain('disconnected');
    expect(states).toContain('reconnected');
    expect(states).not.toContain('lost');
  }, 120_000);

  it('ends a call with a typed timeout at its deadline while Redis stays down', async () => {
    await ownRedis.kill();
    const remote = createRemoteTools({
      connection: { ...redisOptions, port: ownRedis.port },
      prefix,
      queue,
      tools: [effectTool(durable, prefix)],
      deadlines: { 'dag.effect': 1_000 },
    });
    const states: (string | undefined)[] = [];
    const [result] = await createExecutor({ tools: remote.tools }).executeToolCalls(
      [{ id: 'call_down', name: 'dag.effect', arguments: { step: 0, ms: 0, inputs: [] } }],
      { runId: `down-${prefix}`, onEvent: (event) => states.push(remoteCallStateOf(event)?.state) },
    );
    await remote.close();
    expect(result).toMatchObject({ success: false, error_code: 'timeout' });
    expect(result?.error).toContain('deadline of 1000 ms');
    expect(states).toContain('deadline-exceeded');
    expect(await durable.hget(`${prefix}:attempts`, 'call_down')).toBeNull();
    await ownRedis.restart();
  }, 60_000);
});
