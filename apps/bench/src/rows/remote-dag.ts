import { randomBytes } from 'node:crypto';
import { createRemoteTools, type RemoteTools } from '@mtpx/bullmq';
import { createExecutor, type Executor } from '@mtpx/executor';
import { type ExecutionPlan, planFromToolCalls, type ToolResult } from '@mtpx/protocol';
import type { BenchConfig } from '../config';
import { BareOrchestrator, bareQueueOf } from '../remote/bare-bullmq';
import { hopBreakdown, hopClock } from '../remote/hop-breakdown';
import { deleteKeysUnder, redisConnection } from '../remote/redis-keys';
import { WorkerPool } from '../remote/worker-pool';
import { timed } from '../support/clock';
import type { RowResult } from '../support/results';
import { interleave } from '../support/stats';
import { criticalPathMs, type DagNode, dagToolCalls, randomDag } from './random-dag';
import { chainLines, type DagSamples, dagLines } from './remote-dag-lines';
import { sleepTool } from './scheduling';

const queueOf = (workers: number) => `dag-${workers}`;

function checkAllSucceeded(results: readonly ToolResult[], variant: string): void {
  const failed = results.find((result) => !result.success);
  if (failed) throw new Error(`${variant}: call ${failed.call_id} failed: ${failed.error}`);
}

/** A chain of `length` calls of 0 ms, each needing the one before: nothing but hops. */
function chainNodes(length: number): DagNode[] {
  return Array.from({ length }, (_, index) => ({
    id: `call_${index + 1}`,
    latencyMs: 0,
    dependencies: index === 0 ? [] : [index - 1],
  }));
}

/** Row 1's DAG with its 1–20 ms latencies spread linearly over `[low, high]` (I/O-like tools). */
function stretched(nodes: readonly DagNode[], [low, high]: [number, number]): DagNode[] {
  return nodes.map((node) => ({
    ...node,
    latencyMs: low + ((node.latencyMs - 1) / 19) * (high - low),
  }));
}

/** The bare peer's answers are each call's own (the worker returns the call's `ms`). */
async function runBare(bare: BareOrchestrator, nodes: readonly DagNode[]): Promise<number> {
  return timed(async () => {
    const answers = await bare.run(nodes);
    for (const [index, node] of nodes.entries()) {
      if (answers[index] !== node.latencyMs)
        throw new Error(`bare BullMQ: call ${node.id} answered ${String(answers[index])}`);
    }
  });
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
 * worker processes, beside the same DAG driven by a bare BullMQ orchestrator (Queue +
 * QueueEvents, `waitUntilFinished`) on the same processes and the in-process executor —
 * with calls of 1–20 ms, and stretched to 50–500 ms (I/O-like); and a chain of 0 ms calls
 * all three ways, whose time per call is the cost of one remote hop.
 */
export async function remoteDagRow(config: BenchConfig): Promise<RowResult> {
  const { size, workerCounts, concurrency, chainLength, repetitions } = config.remote;
  const { slowLatencyMs, slowRepetitions } = config.remote;
  const prefix = `mtpx-bench-${process.pid}-${randomBytes(4).toString('hex')}`;
  const pool = await WorkerPool.start(prefix, workerCounts, concurrency, (count) => [
    queueOf(count),
    bareQueueOf(count),
  ]);
  const remotes = new Map<number, RemoteTools>();
  const bares = new Map<number, BareOrchestrator>();
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
      bares.set(count, await BareOrchestrator.start(prefix, bareQueueOf(count)));
    }
    const local = createExecutor({ tools: [sleepTool] });
    const remoteExecutors = new Map(
      [...remotes].map(([count, remote]) => [count, createExecutor({ tools: remote.tools })]),
    );
    const fewest = Math.min(...workerCounts);
    const hopExecutor = remoteExecutors.get(fewest) as Executor;
    const hopBare = bares.get(fewest) as BareOrchestrator;

    const dags = Array.from({ length: repetitions }, (_, round) => randomDag(size, round + 1));
    const slowDags = dags.slice(0, slowRepetitions).map((nodes) => stretched(nodes, slowLatencyMs));
    const planOf = (nodes: readonly DagNode[]) =>
      planFromToolCalls(dagToolCalls(nodes, sleepTool.name));
    const plans = dags.map(planOf);
    const slowPlans = slowDags.map(planOf);
    const chain = chainNodes(chainLength);
    const chainPlan = planOf(chain);
    // Warm every path once (JIT, Ajv, connections, the workers' first jobs) before timing.
    const warmUpDag = randomDag(Math.min(20, size), 999);
    const warmUp = planOf(warmUpDag);
    for (const executor of [local, ...remoteExecutors.values()]) {
      await runOnce(executor, warmUp, 'warm-up');
    }
    for (const bare of bares.values()) await runBare(bare, warmUpDag);
    await runOnce(hopExecutor, chainPlan, 'warm-up');
    await runBare(hopBare, chain);

    type Variant = readonly [string, (round: number) => Promise<number>];
    // MTPX and its bare peer on the same workers run back to back, in turn first (ABBA by
    // round), so what ran just before — or the machine's drift — favours neither side of
    // their paired ratio.
    const pairs: Record<string, number[]> = {};
    const pair = (
      name: string,
      mtpx: (round: number) => Promise<number>,
      bare: (round: number) => Promise<number>,
    ): Variant => {
      pairs[`mtpx${name}`] = [];
      pairs[`bare${name}`] = [];
      return [
        `pair${name}`,
        async (round) => {
          const order = round % 2 === 0 ? (['mtpx', 'bare'] as const) : (['bare', 'mtpx'] as const);
          for (const side of order) {
            const ms = await (side === 'mtpx' ? mtpx : bare)(round);
            (pairs[`${side}${name}`] as number[])[round] = ms;
          }
          return 0;
        },
      ];
    };
    const dagVariants = (dagPlans: ExecutionPlan[], dagNodes: DagNode[][]): Variant[] => [
      ['in-process', (round) => runOnce(local, dagPlans[round] as ExecutionPlan, 'in-process')],
      ...workerCounts.map(
        (count): Variant =>
          pair(
            `-${count}`,
            (round) =>
              runOnce(
                remoteExecutors.get(count) as Executor,
                dagPlans[round] as ExecutionPlan,
                `remote-${count}`,
              ),
            (round) => runBare(bares.get(count) as BareOrchestrator, dagNodes[round] as DagNode[]),
          ),
      ),
    ];
    const fast = {
      ...(await interleave(repetitions, [
        ...dagVariants(plans, dags),
        ['chain-in-process', () => runOnce(local, chainPlan, 'chain in-process')],
        pair(
          '-chain',
          () => runOnce(hopExecutor, chainPlan, 'chain remote'),
          () => runBare(hopBare, chain),
        ),
      ])),
      ...pairs,
    };
    const slow = {
      ...(await interleave(slowRepetitions, dagVariants(slowPlans, slowDags))),
      ...pairs,
    };
    // One more chain, untimed, to see where a hop's time goes.
    const clock = hopClock();
    const breakdownRun = `bench-breakdown-${runCounter}`;
    checkAllSucceeded(
      await hopExecutor.execute(chainPlan, { runId: breakdownRun, onEvent: clock.onEvent }),
      'breakdown',
    );
    const breakdown = await hopBreakdown(prefix, queueOf(fewest), breakdownRun, clock.times);

    const fastSamples: DagSamples = {
      benchmark: `${size} calls, 1–20 ms`,
      critical: dags.map(criticalPathMs),
      makespans: fast,
    };
    const [low, high] = slowLatencyMs;
    const slowSamples: DagSamples = {
      benchmark: `${size} calls, ${low}–${high} ms (I/O-like)`,
      critical: slowDags.map(criticalPathMs),
      makespans: slow,
      goalAtTen: 'goal ≤ 1.1 × critical path',
      note: `${slowRepetitions} repetitions`,
    };
    return {
      row: 7,
      title: 'Remote tools',
      measures:
        "Row 1's random DAG through @mtpx/bullmq on worker processes (Redis), beside a bare BullMQ orchestrator on the same processes and in-process: makespan ÷ critical path, MTPX ÷ bare BullMQ per round; a chain of 0 ms calls gives the cost of one remote hop.",
      repetitions,
      lines: [
        ...dagLines(fastSamples, workerCounts, concurrency),
        ...chainLines(
          {
            inProcess: fast['chain-in-process'] as number[],
            bare: fast['bare-chain'] as number[],
            mtpx: fast['mtpx-chain'] as number[],
          },
          chainLength,
          fewest,
          breakdown,
        ),
        ...dagLines(slowSamples, workerCounts, concurrency),
      ],
    };
  } finally {
    await Promise.allSettled([...remotes.values()].map((remote) => remote.close()));
    await Promise.allSettled([...bares.values()].map((bare) => bare.close()));
    await pool.stop();
    await deleteKeysUnder(prefix);
  }
}
