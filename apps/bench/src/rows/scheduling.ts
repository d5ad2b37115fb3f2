import { createExecutor, defineTool, type Executor } from '@mtpx/executor';
import {
  type ExecutionPlan,
  type ExecutionPlanInput,
  planFromToolCalls,
  type ToolResult,
} from '@mtpx/protocol';
import type { BenchConfig } from '../config';
import { timed } from '../support/clock';
import { formatMs } from '../support/format';
import type { ResultLine, RowResult } from '../support/results';
import { sleepAtLeast } from '../support/sleep';
import { interleave, pairedRatios, summarize } from '../support/stats';
import { cappedToolkitLines } from './capped-toolkit';
import { criticalPathMs, type DagNode, dagToolCalls, randomDag } from './random-dag';

/** Python MTPX on exactly this generator (level by level), from the issue. */
const pythonMtpx: Record<number, number> = { 50: 1.62, 500: 1.96 };

/** Row 1's tool (row 7 runs it on worker processes). */
export const sleepTool = defineTool({
  name: 'dag.sleep',
  description: 'Sleeps at least `ms` milliseconds (real timers), then returns them.',
  input_schema: {
    type: 'object',
    properties: {
      step: { type: 'integer' },
      ms: { type: 'number' },
      inputs: { type: 'array' },
    },
    required: ['step', 'ms', 'inputs'],
  },
  execute: async (args) => {
    await sleepAtLeast(args.ms as number);
    return args.ms;
  },
});

function checkAllSucceeded(results: readonly ToolResult[], variant: string): void {
  const failed = results.find((result) => !result.success);
  if (failed) throw new Error(`${variant}: call ${failed.call_id} failed: ${failed.error}`);
}

/** The ideal eager schedule with bare promises and the same timers: what the timers alone cost. */
async function runBarePromises(nodes: readonly DagNode[]): Promise<void> {
  const finished: Promise<unknown>[] = [];
  for (const node of nodes) {
    const inputs = node.dependencies.map((dependency) => finished[dependency]);
    finished.push(Promise.all(inputs).then(() => sleepAtLeast(node.latencyMs)));
  }
  await Promise.all(finished);
}

type SchedulingVariant = 'eager' | 'batches' | 'sequential' | 'bare';

function variantsFor(executor: Executor, dags: readonly DagNode[][]) {
  const calls = dags.map((nodes) => dagToolCalls(nodes, sleepTool.name));
  // Batches are the dependency levels; the sequential plan is the calls in order, one
  // sequential batch, each call waiting for the one before it.
  const plans = calls.map((dagCalls) => planFromToolCalls(dagCalls));
  const sequentialPlans = calls.map(
    (dagCalls): ExecutionPlanInput => ({ batches: [{ mode: 'sequential', calls: dagCalls }] }),
  );
  const run = (variant: SchedulingVariant, round: number) => {
    const nodes = dags[round] as DagNode[];
    const plan = plans[round] as ExecutionPlan;
    const sequentialPlan = sequentialPlans[round] as ExecutionPlanInput;
    return timed(async () => {
      if (variant === 'bare') return runBarePromises(nodes);
      const results =
        variant === 'sequential'
          ? await executor.execute(sequentialPlan)
          : await executor.execute(plan, { scheduling: variant });
      checkAllSucceeded(results, variant);
    });
  };
  return (['eager', 'batches', 'sequential', 'bare'] as const).map(
    (variant) => [variant, (round: number) => run(variant, round)] as const,
  );
}

const labels: Record<SchedulingVariant, string> = {
  eager: 'MTPX eager (default)',
  batches: 'MTPX `scheduling: "batches"`',
  sequential: 'sequential (one sequential batch)',
  bare: 'bare promises, same timers',
};

/**
 * Row 1: seeded random DAGs run by our executor eagerly, level by level and sequentially
 * (and, as a floor, by bare promises on the same timers): makespan ÷ critical path.
 */
export async function schedulingRow(config: BenchConfig): Promise<RowResult> {
  const { sizes, repetitions } = config.scheduling;
  const executor = createExecutor({ tools: [sleepTool] });
  // Warm up every path once (JIT, Ajv compilation) before anything is timed.
  const warmUp = [randomDag(Math.min(20, ...sizes), 999)];
  for (const [, measure] of variantsFor(executor, warmUp)) await measure(0);

  const lines: ResultLine[] = [];
  for (const size of sizes) {
    // Round r runs the DAG of seed r + 1 in every variant.
    const dags = Array.from({ length: repetitions }, (_, round) => randomDag(size, round + 1));
    const critical = dags.map(criticalPathMs);
    const makespans = await interleave(repetitions, variantsFor(executor, dags));
    for (const variant of ['eager', 'batches', 'sequential', 'bare'] as const) {
      const ratios = makespans[variant].map((makespan, round) => makespan / (critical[round] ?? 1));
      const python = pythonMtpx[size];
      const notes: string[] = [];
      if (variant === 'eager') notes.push('target ≤ 1.02');
      if ((variant === 'eager' || variant === 'batches') && python !== undefined) {
        notes.push(`Python MTPX (level by level): ${python}`);
      }
      if (variant === 'bare') notes.push('timer overshoot alone');
      notes.push(`makespan ${formatMs(summarize(makespans[variant]).median)}`);
      lines.push({
        benchmark: `${size} calls`,
        variant: labels[variant],
        value: summarize(ratios),
        unit: '× critical path',
        ...(variant === 'bare'
          ? {}
          : {
              ratio: {
                to: 'bare promises',
                value: pairedRatios(makespans[variant], makespans.bare),
              },
            }),
        details: {
          criticalPathMs: summarize(critical).median,
          makespanMs: summarize(makespans[variant]).median,
        },
        note: notes.join(' · '),
      });
    }
  }
  lines.push(...(await cappedToolkitLines(repetitions)));
  return {
    row: 1,
    title: 'Scheduling',
    measures:
      'Seeded random DAGs (each call references 0–3 earlier calls, sleeps 1–20 ms): makespan ÷ critical path; a toolkit capped at 2 (10 calls beside 6 uncapped): makespan ÷ the cap bound.',
    repetitions,
    lines,
  };
}
