import { formatMs, formatNumber, formatSignedMs } from '../support/format';
import type { ResultLine } from '../support/results';
import { pairedRatios, summarize } from '../support/stats';

/** One run of one agent variant against a scripted model server. */
export interface AgentSample {
  wallMs: number;
  modelCalls: number;
  /** o200k tokens of every request's messages and tools (see `tokensSent`). */
  tokensSent: number;
  /** The same requests by Anthropic's counting (see `anthropicTokensSent`). */
  anthropicTokensSent: number;
}

/** Tokens per model call, by each counting rule, of one sample. */
function perRequest(sample: AgentSample): { o200k: number; anthropic: number } {
  return {
    o200k: sample.tokensSent / sample.modelCalls,
    anthropic: sample.anthropicTokensSent / sample.modelCalls,
  };
}

/**
 * A table line for one variant: its wall time; its model calls, tokens sent (o200k, and by
 * Anthropic's rules) and distance from its lower bound in the notes; with a baseline, the
 * paired wall-time ratio (and the tokens ratio in the notes); with a `peer` (the Vercel AI
 * SDK's line of the row, on the same script or not), the paired ratio of tokens PER
 * REQUEST to it by both rules — the issue's ≤ 1.15× target.
 */
export function agentLine(options: {
  benchmark: string;
  variant: string;
  samples: readonly AgentSample[];
  lowerBoundMs: number;
  baseline?: { label: string; samples: readonly AgentSample[] };
  peer?: { label: string; samples: readonly AgentSample[] };
}): ResultLine {
  const { samples, lowerBoundMs, baseline, peer } = options;
  const wall = summarize(samples.map((sample) => sample.wallMs));
  const modelCalls = summarize(samples.map((sample) => sample.modelCalls)).median;
  const tokens = summarize(samples.map((sample) => sample.tokensSent)).median;
  const anthropicTokens = summarize(samples.map((sample) => sample.anthropicTokensSent)).median;
  const details: Record<string, number> = {
    modelCalls,
    tokensSent: tokens,
    anthropicTokensSent: anthropicTokens,
    tokensPerRequest: summarize(samples.map((sample) => perRequest(sample).o200k)).median,
    anthropicTokensPerRequest: summarize(samples.map((sample) => perRequest(sample).anthropic))
      .median,
    lowerBoundMs,
    overLowerBoundMs: wall.median - lowerBoundMs,
  };
  const notes = [
    `${modelCalls} model calls`,
    `${formatNumber(tokens)} tokens sent (Anthropic rules ${formatNumber(anthropicTokens)})`,
  ];
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
  if (peer) {
    const ratio = (rule: 'o200k' | 'anthropic') =>
      pairedRatios(
        samples.map((sample) => perRequest(sample)[rule]),
        peer.samples.map((sample) => perRequest(sample)[rule]),
      ).median;
    details.tokensPerRequestRatioToPeer = ratio('o200k');
    details.anthropicTokensPerRequestRatioToPeer = ratio('anthropic');
    notes.push(
      `tokens/request ${formatNumber(details.tokensPerRequestRatioToPeer)}× ${peer.label} (Anthropic rules ${formatNumber(details.anthropicTokensPerRequestRatioToPeer)}×)`,
    );
  }
  notes.push(`bound ${formatMs(lowerBoundMs)}, ${formatSignedMs(wall.median - lowerBoundMs)}`);
  line.note = notes.join(' · ');
  return line;
}
