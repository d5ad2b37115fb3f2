import { randomBytes } from 'node:crypto';
import { createRemoteTools, type RemoteTools } from '@mtpx/bullmq';
import { createExecutor, type Executor } from '@mtpx/executor';
import { type ExecutionPlan, planFromToolCalls, type ToolResult } from '@mtpx/protocol';
import type { BenchConfig } from '../config';
import { hopBreakdown, hopClock } from '../remote/hop-breakdown';
import { deleteKeysUnder, redisConnection } from '../remote/redis-keys';
import { WorkerPool } from '../remote/worker-pool';
import { timed } from '../support/clock';
import { formatMs } from '../support/format';
import type { ResultLine, RowResult } from '../support/results';
import { interleave, pairedRatios, summarize } from '../support/stats';
import { criticalPathMs, type DagNode, dagToolCalls, randomDag } from './random-dag';
import { sleepTool } from './scheduling';

const queueOf = (workers: number) => `dag-${workers}`;

function checkAllSucceeded(results: readonly ToolResult[], variant: string): void {
  const failed = results.find((result) => !result.success);
  if (failed) throw new Error(`${variant}: call ${failed.call_id} failed: ${failed.error}`);
}

/** A chain of `length` calls of 0 ms, each needing the one before: nothing but hops. */
function chainPlan(length: number): ExecutionPlan {
  const nodes: DagNode[] = Array.from({ length }, (_, index) => ({
    id: `call_${index + 1}`,
    latencyMs: 0,
    dependencies: index === 0 ? [] : [index - 1],
  }));
  return planFromToolCalls(dagToolCalls(nodes, sleepTool.name));
}

/** Every run gets its own run id, so its job ids are new (a repeated id would be answered from Redis). */
let runCounter = 0;
function runOnce(executor: Executor, plan: ExecutionPlan, variant: string): Promise<number> {
  runCounter += 1;
  return timed(async () => {
    checkAllSucceeded(await executor.execute(plan, { runId: `bench-${runCounter}` }), variant);
  });
}

/**
 * Row 7: row 1's 500-call random DAG through remote tools (`@mtpx/bullmq`) on 1, 4 and 10
 * worker processes, beside the in-process executor: makespan ÷ critical path; and a chain
 * of 0 ms calls both ways, whose difference per call is the cost of one remote hop.
 */
export async function remoteDagRow(config: BenchConfig): Promise<RowResult> {
  const { size, workerCounts, concurrency, chainLength, repetitions } = config.remote;
  const prefix = `mtpx-bench-${process.pid}-${randomBytes(4).toString('hex')}`;
  const pool = await WorkerPool.start(prefix, workerCounts, concurrency, queueOf);
  const remotes = new Map<number, RemoteTools>();
  try {
    for (const count of workerCounts) {
      const remote = createRemoteTools({
        connection: redisConnection,
        prefix,
        queue: queueOf(count),
        tools: [sleepTool],
      });
      await remote.ready();
      remotes.set(count, remote);
    }
    const local = createExecutor({ tools: [sleepTool] });
    const remoteExecutors = new Map(
      [...remotes].map(([count, remote]) => [count, createExecutor({ tools: remote.tools })]),
    );
    const fewest = Math.min(...workerCounts);
    const hopExecutor = remoteExecutors.get(fewest) as Executor;

    const dags = Array.from({ length: repetitions }, (_, round) => randomDag(size, round + 1));
    const plans = dags.map((nodes) => planFromToolCalls(dagToolCalls(nodes, sleepTool.name)));
    const critical = dags.map(criticalPathMs);
    const chain = chainPlan(chainLength);
    // Warm every path once (JIT, Ajv, connections, the workers' first jobs) before timing.
    const warmUp = planFromToolCalls(
      dagToolCalls(randomDag(Math.min(20, size), 999), sleepTool.name),
    );
    for (const executor of [local, ...remoteExecutors.values()]) {
      await runOnce(executor, warmUp, 'warm-up');
    }
    await runOnce(hopExecutor, chain, 'warm-up');

    type Variant = readonly [string, (round: number) => Promise<number>];
    const dagVariants: Variant[] = [
      ['in-process', (round) => runOnce(local, plans[round] as ExecutionPlan, 'in-process')],
      ...[...remoteExecutors].map(
        ([count, executor]): Variant => [
          `remote-${count}`,
          (round) => runOnce(executor, plans[round] as ExecutionPlan, `remote-${count}`),
        ],
      ),
      ['chain-in-process', () => runOnce(local, chain, 'chain in-process')],
      ['chain-remote', () => runOnce(hopExecutor, chain, 'chain remote')],
    ];
    const makespans = await interleave(repetitions, dagVariants);
    // One more chain, untimed, to see where a hop's time goes.
    const clock = hopClock();
    const breakdownRun = `bench-breakdown-${runCounter}`;
    checkAllSucceeded(
      await hopExecutor.execute(chain, { runId: breakdownRun, onEvent: clock.onEvent }),
      'breakdown',
    );
    const breakdown = await hopBreakdown(prefix, queueOf(fewest), breakdownRun, clock.times);

    const lines: ResultLine[] = [];
    const inProcess = makespans['in-process'] as number[];
    const ratiosOf = (samples: number[]) =>
      samples.map((makespan, round) => makespan / (critical[round] ?? 1));
    lines.push({
      benchmark: `${size} calls`,
      variant: 'in-process (row 1, eager)',
      value: summarize(ratiosOf(inProcess)),
      unit: '× critical path',
      details: {
        criticalPathMs: summarize(critical).median,
        makespanMs: summarize(inProcess).median,
      },
      note: `makespan ${formatMs(summarize(inProcess).median)}`,
    });
    for (const count of workerCounts) {
      const samples = makespans[`remote-${count}`] as number[];
      const notes: string[] = [];
      if (count === 10) notes.push('goal ≤ 1.2');
      notes.push(`${count * concurrency} calls at once`);
      notes.push(`makespan ${formatMs(summarize(samples).median)}`);
      lines.push({
        benchmark: `${size} calls`,
        variant: `remote tools, ${count} worker process${count === 1 ? '' : 'es'}`,
        value: summarize(ratiosOf(samples)),
        unit: '× critical path',
        ratio: { to: 'in-process', value: pairedRatios(samples, inProcess) },
        details: {
          criticalPathMs: summarize(critical).median,
          makespanMs: summarize(samples).median,
          workers: count,
          concurrencyPerWorker: concurrency,
        },
        note: notes.join(' · '),
      });
    }
    const perCall = (samples: number[]) => samples.map((ms) => ms / chainLength);
    const chainLocal = perCall(makespans['chain-in-process'] as number[]);
    const chainRemote = perCall(makespans['chain-remote'] as number[]);
    const hop = chainRemote.map((remote, round) => remote - (chainLocal[round] as number));
    const chainName = `chain of ${chainLength} 0 ms calls`;
    lines.push(
      {
        benchmark: chainName,
        variant: 'in-process',
        value: summarize(chainLocal),
        unit: 'ms/call',
        note: 'one timer turn a call',
      },
      {
        benchmark: chainName,
        variant: `remote tools (${fewest} worker process${fewest === 1 ? '' : 'es'})`,
        value: summarize(chainRemote),
        unit: 'ms/call',
        ratio: { to: 'in-process', value: pairedRatios(chainRemote, chainLocal) },
      },
      {
        benchmark: chainName,
        variant: 'added per remote hop',
        value: summarize(hop),
        unit: 'ms/hop',
        details: { ...breakdown },
        note: `pickup ${breakdown.pickupMs.toFixed(1)} + run ${breakdown.runMs.toFixed(1)} + answer ${breakdown.answerMs.toFixed(1)} ms (one untimed chain)`,
      },
    );
    return {
      row: 7,
      title: 'Remote tools',
      measures:
        "Row 1's random DAG through @mtpx/bullmq on worker processes (Redis), beside in-process: makespan ÷ critical path; a chain of 0 ms calls gives the cost of one remote hop.",
      repetitions,
      lines,
    };
  } finally {
    await Promise.allSettled([...remotes.values()].map((remote) => remote.close()));
    await pool.stop();
    await deleteKeysUnder(prefix);
  }
}
