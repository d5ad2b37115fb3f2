import { createExecutor, defineTool, type ExecutorEvent } from '@mtpx/executor';
import { type ExecutionPlan, planFromToolCalls, type ToolCallInput } from '@mtpx/protocol';
import { now } from '../support/clock';
import { formatMs } from '../support/format';
import type { ResultLine } from '../support/results';
import { sleepAtLeast } from '../support/sleep';
import { interleave, pairedRatios, summarize } from '../support/stats';

/** The toolkit's cap, its ready calls, the uncapped calls beside them, and each call's sleep. */
const cap = 2;
const cappedCalls = 10;
const uncappedCalls = 6;
/** Each call sleeps exactly this long (row 1's latencies run 1–20 ms). */
export const cappedCallMs = 20;
/** No schedule with at most `cap` capped calls at once can finish sooner. */
const capBoundMs = Math.ceil(cappedCalls / cap) * cappedCallMs;

/** One sleeping tool whose calls count how many of them run at once. */
function countedSleepTool(name: string) {
  const count = { inFlight: 0, maxInFlight: 0 };
  const tool = defineTool({
    name,
    description: 'Sleeps at least `ms` milliseconds (real timers), then returns them.',
    risk_level: 'read_only',
    input_schema: {
      type: 'object',
      properties: { step: { type: 'integer' }, ms: { type: 'number' } },
      required: ['step', 'ms'],
    },
    execute: async (args) => {
      count.inFlight += 1;
      count.maxInFlight = Math.max(count.maxInFlight, count.inFlight);
      try {
        await sleepAtLeast(args.ms as number);
      } finally {
        count.inFlight -= 1;
      }
      return args.ms;
    },
  });
  return { tool, count };
}

/** One run's two times: the makespan and the moment the last uncapped call was done. */
interface CappedSample {
  makespanMs: number;
  uncappedDoneMs: number;
}

/** The plan: the capped calls first, so the uncapped ones arrive behind calls that wait. */
function cappedPlan(cappedTool: string, uncappedTool: string): ExecutionPlan {
  const calls = (tool: string, count: number, prefix: string): ToolCallInput[] =>
    Array.from({ length: count }, (_, step) => ({
      id: `${prefix}_${step + 1}`,
      name: tool,
      arguments: { step, ms: cappedCallMs },
    }));
  return planFromToolCalls([
    ...calls(cappedTool, cappedCalls, 'browser'),
    ...calls(uncappedTool, uncappedCalls, 'notes'),
  ]);
}

/** MTPX: one executor with `toolConcurrency: { 'browser.*': 2 }`, one plan of all 16 calls. */
function mtpxVariant() {
  const browser = countedSleepTool('browser.sleep');
  const notes = countedSleepTool('notes.sleep');
  const executor = createExecutor({
    tools: [browser.tool, notes.tool],
    toolConcurrency: { 'browser.*': cap },
  });
  const plan = cappedPlan(browser.tool.name, notes.tool.name);
  return async (): Promise<CappedSample> => {
    browser.count.maxInFlight = 0;
    notes.count.maxInFlight = 0;
    let uncappedDone = 0;
    let uncappedFinished = 0;
    const started = now();
    const results = await executor.execute(plan, {
      onEvent: (event: ExecutorEvent) => {
        if (event.type === 'call-finished' && event.toolName === notes.tool.name) {
          uncappedFinished += 1;
          uncappedDone = now() - started;
        }
      },
    });
    const makespanMs = now() - started;
    // Checked before the time counts: every call ran, the cap held and was used, and the
    // uncapped calls all ran at once.
    const failed = results.find((result) => !result.success);
    if (failed) throw new Error(`capped toolkit: ${failed.call_id} failed: ${failed.error}`);
    if (browser.count.maxInFlight !== cap) {
      throw new Error(`capped toolkit: ${browser.count.maxInFlight} capped calls ran at once`);
    }
    if (notes.count.maxInFlight !== uncappedCalls || uncappedFinished !== uncappedCalls) {
      throw new Error(`capped toolkit: ${notes.count.maxInFlight} uncapped calls ran at once`);
    }
    return { makespanMs, uncappedDoneMs: uncappedDone };
  };
}

/** The baseline: a hand-written pool of 2 workers for the capped calls, the others free. */
async function barePool(): Promise<CappedSample> {
  const started = now();
  let next = 0;
  const worker = async () => {
    while (next < cappedCalls) {
      next += 1;
      await sleepAtLeast(cappedCallMs);
    }
  };
  const capped = Promise.all(Array.from({ length: cap }, worker));
  const uncapped = Promise.all(
    Array.from({ length: uncappedCalls }, () => sleepAtLeast(cappedCallMs)),
  ).then(() => now() - started);
  const [, uncappedDoneMs] = await Promise.all([capped, uncapped]);
  return { makespanMs: now() - started, uncappedDoneMs };
}

/**
 * Row 1's capped-toolkit case (issue 27): a toolkit capped at 2 with 10 ready calls and 6
 * uncapped calls of another tool, all in one plan. Two lines: makespan ÷ the bound a cap
 * of 2 allows (ceil(10 / 2) × one call), and the time the uncapped calls were all done ÷
 * one call (they must not wait for the cap); each paired with a bare pool of 2 run
 * interleaved.
 */
export async function cappedToolkitLines(repetitions: number): Promise<ResultLine[]> {
  const mtpx = mtpxVariant();
  // Warm up both paths once before anything is timed.
  await mtpx();
  await barePool();
  const samples = await interleave(repetitions, [
    ['mtpx', () => mtpx()],
    ['bare', () => barePool()],
  ] as const);
  const pick = (name: 'mtpx' | 'bare', key: keyof CappedSample) =>
    samples[name].map((sample) => sample[key]);
  const benchmark = `toolkit capped at ${cap}: ${cappedCalls} calls + ${uncappedCalls} uncapped, ${cappedCallMs} ms each`;
  const makespans = pick('mtpx', 'makespanMs');
  const uncappedDone = pick('mtpx', 'uncappedDoneMs');
  const bareMakespan = summarize(pick('bare', 'makespanMs')).median;
  const bareUncapped = summarize(pick('bare', 'uncappedDoneMs')).median;
  return [
    {
      benchmark,
      variant: "MTPX `toolConcurrency: { 'browser.*': 2 }`: makespan",
      value: summarize(makespans.map((makespan) => makespan / capBoundMs)),
      unit: `× cap bound (ceil(${cappedCalls}/${cap}) × ${cappedCallMs} ms)`,
      ratio: { to: 'bare pool of 2', value: pairedRatios(makespans, pick('bare', 'makespanMs')) },
      details: {
        capBoundMs,
        makespanMs: summarize(makespans).median,
        bareMakespanMs: bareMakespan,
      },
      note: `never more than ${cap} at once (checked) · makespan ${formatMs(summarize(makespans).median)}, bare pool ${formatMs(bareMakespan)}`,
    },
    {
      benchmark,
      variant: 'MTPX, the uncapped calls all done',
      value: summarize(uncappedDone.map((done) => done / cappedCallMs)),
      unit: '× one call',
      ratio: {
        to: 'bare pool of 2',
        value: pairedRatios(uncappedDone, pick('bare', 'uncappedDoneMs')),
      },
      details: { uncappedDoneMs: summarize(uncappedDone).median, bareUncappedDoneMs: bareUncapped },
      note: `target 1 (they wait for no cap) · done at ${formatMs(summarize(uncappedDone).median)}, bare ${formatMs(bareUncapped)}`,
    },
  ];
}
