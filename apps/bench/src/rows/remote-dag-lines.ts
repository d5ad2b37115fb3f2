import type { HopBreakdown } from '../remote/hop-breakdown';
import { formatMs } from '../support/format';
import type { ResultLine } from '../support/results';
import { pairedRatios, summarize } from '../support/stats';

/** One DAG kind's samples: makespans by variant (`in-process`, `mtpx-N`, `bare-N`), critical paths by round. */
export interface DagSamples {
  /** `500 calls, 1–20 ms`. */
  benchmark: string;
  critical: number[];
  makespans: Record<string, number[]>;
  /** The note on the 10-worker line of MTPX (its goal). */
  goalAtTen?: string;
  /** A note on every line (fewer repetitions). */
  note?: string;
}

/**
 * The lines of one DAG kind: in-process, then for each worker count MTPX (its ratio to the
 * bare BullMQ peer of the same rounds: the row's headline) and the bare peer.
 */
export function dagLines(samples: DagSamples, workerCounts: number[], concurrency: number) {
  const { benchmark, critical, makespans } = samples;
  const ratiosOf = (values: number[]) =>
    values.map((makespan, round) => makespan / (critical[round] ?? 1));
  const criticalPathMs = summarize(critical).median;
  const notes = (...parts: Array<string | undefined>) =>
    [...parts, samples.note].filter((part) => part !== undefined).join(' · ');
  const inProcess = makespans['in-process'] as number[];
  const lines: ResultLine[] = [
    {
      benchmark,
      variant: 'in-process (row 1, eager)',
      value: summarize(ratiosOf(inProcess)),
      unit: '× critical path',
      details: { criticalPathMs, makespanMs: summarize(inProcess).median },
      note: notes(`makespan ${formatMs(summarize(inProcess).median)}`),
    },
  ];
  for (const count of workerCounts) {
    const mtpx = makespans[`mtpx-${count}`] as number[];
    const bare = makespans[`bare-${count}`] as number[];
    const processes = `${count} worker process${count === 1 ? '' : 'es'}`;
    lines.push(
      {
        benchmark,
        variant: `MTPX remote tools, ${processes}`,
        value: summarize(ratiosOf(mtpx)),
        unit: '× critical path',
        ratio: { to: 'bare BullMQ', value: pairedRatios(mtpx, bare) },
        details: {
          criticalPathMs,
          makespanMs: summarize(mtpx).median,
          toInProcess: pairedRatios(mtpx, inProcess).median,
          workers: count,
          concurrencyPerWorker: concurrency,
        },
        note: notes(
          count === 10 ? samples.goalAtTen : undefined,
          `${count * concurrency} calls at once`,
          `makespan ${formatMs(summarize(mtpx).median)}`,
        ),
      },
      {
        benchmark,
        variant: `bare BullMQ, ${processes}`,
        value: summarize(ratiosOf(bare)),
        unit: '× critical path',
        ratio: { to: 'in-process', value: pairedRatios(bare, inProcess) },
        details: { criticalPathMs, makespanMs: summarize(bare).median, workers: count },
        note: notes(`makespan ${formatMs(summarize(bare).median)}`),
      },
    );
  }
  return lines;
}

/**
 * The hop lines: a chain of 0 ms calls in-process, on bare BullMQ and on MTPX (ms per call:
 * one remote hop each), and what MTPX adds per hop over in-process, split by BullMQ's stamps.
 */
export function chainLines(
  chain: { inProcess: number[]; bare: number[]; mtpx: number[] },
  chainLength: number,
  workers: number,
  breakdown: HopBreakdown,
): ResultLine[] {
  const perCall = (samples: number[]) => samples.map((ms) => ms / chainLength);
  const inProcess = perCall(chain.inProcess);
  const bare = perCall(chain.bare);
  const mtpx = perCall(chain.mtpx);
  const added = (samples: number[]) =>
    samples.map((value, round) => value - (inProcess[round] as number));
  const benchmark = `chain of ${chainLength} 0 ms calls`;
  const processes = `${workers} worker process${workers === 1 ? '' : 'es'}`;
  return [
    {
      benchmark,
      variant: 'in-process',
      value: summarize(inProcess),
      unit: 'ms/call',
      note: 'one timer turn a call',
    },
    {
      benchmark,
      variant: `bare BullMQ (${processes})`,
      value: summarize(bare),
      unit: 'ms/call',
      ratio: { to: 'in-process', value: pairedRatios(bare, inProcess) },
      details: { addedPerHopMs: summarize(added(bare)).median },
      note: `adds ${summarize(added(bare)).median.toFixed(2)} ms/hop over in-process`,
    },
    {
      benchmark,
      variant: `MTPX remote tools (${processes})`,
      value: summarize(mtpx),
      unit: 'ms/call',
      ratio: { to: 'bare BullMQ', value: pairedRatios(mtpx, bare) },
      details: { addedPerHopMs: summarize(added(mtpx)).median },
      note: `goal ÷ bare ≤ 1.2 · adds ${summarize(added(mtpx)).median.toFixed(2)} ms/hop over in-process`,
    },
    {
      benchmark,
      variant: 'MTPX: added per remote hop',
      value: summarize(added(mtpx)),
      unit: 'ms/hop',
      ratio: { to: "bare BullMQ's", value: pairedRatios(added(mtpx), added(bare)) },
      details: { ...breakdown },
      note: `pickup ${breakdown.pickupMs.toFixed(1)} + run ${breakdown.runMs.toFixed(1)} + answer ${breakdown.answerMs.toFixed(1)} ms (one untimed chain)`,
    },
  ];
}
