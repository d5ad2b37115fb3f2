import { formatMs, formatNumber, formatSignedMs } from '../support/format';
import type { ResultLine } from '../support/results';
import { pairedRatios, summarize } from '../support/stats';

/** One run of one agent variant against a scripted model server. */
export interface AgentSample {
  wallMs: number;
  modelCalls: number;
  tokensSent: number;
}

/**
 * A table line for one variant: its wall time; its model calls, tokens sent and distance
 * from its lower bound in the notes; with a baseline, the paired wall-time ratio (and the
 * tokens ratio in the notes).
 */
export function agentLine(options: {
  benchmark: string;
  variant: string;
  samples: readonly AgentSample[];
  lowerBoundMs: number;
  baseline?: { label: string; samples: readonly AgentSample[] };
}): ResultLine {
  const { samples, lowerBoundMs, baseline } = options;
  const wall = summarize(samples.map((sample) => sample.wallMs));
  const modelCalls = summarize(samples.map((sample) => sample.modelCalls)).median;
  const tokens = summarize(samples.map((sample) => sample.tokensSent)).median;
  const details: Record<string, number> = {
    modelCalls,
    tokensSent: tokens,
    lowerBoundMs,
    overLowerBoundMs: wall.median - lowerBoundMs,
  };
  const notes = [`${modelCalls} model calls`, `${formatNumber(tokens)} tokens sent`];
  const line: ResultLine = {
    benchmark: options.benchmark,
    variant: options.variant,
    value: wall,
    unit: 'ms',
    details,
  };
  if (baseline) {
    line.ratio = {
      to: baseline.label,
      value: pairedRatios(
        wall.samples,
        baseline.samples.map((sample) => sample.wallMs),
      ),
    };
    details.tokensRatio = pairedRatios(
      samples.map((sample) => sample.tokensSent),
      baseline.samples.map((sample) => sample.tokensSent),
    ).median;
    notes.push(`tokens ${formatNumber(details.tokensRatio)}× ${baseline.label}`);
  }
  notes.push(`bound ${formatMs(lowerBoundMs)}, ${formatSignedMs(wall.median - lowerBoundMs)}`);
  line.note = notes.join(' · ');
  return line;
}
