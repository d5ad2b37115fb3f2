import { now } from '../support/clock';
import { formatMs, formatNumber, formatSignedMs } from '../support/format';
import type { ResultLine } from '../support/results';
import { pairedRatios, summarize } from '../support/stats';
import { type RecordedBody, tokensSent } from './tokens-sent';

/** One run of one agent variant against a scripted model server. */
export interface AgentSample {
  wallMs: number;
  modelCalls: number;
  tokensSent: number;
}

/** What a variant's run must have done, checked before its time counts. */
export interface Expectation {
  modelCalls: number;
  check: () => string | undefined;
}

/**
 * Times `run` (the agent's whole task, from the first model call to the final answer),
 * then checks the run did what the scenario says — the model calls, the tools' work,
 * the answer — and counts the tokens it sent. A run that did something else throws: a
 * benchmark of a broken flow measures nothing.
 */
export async function sampleAgentRun(
  variant: string,
  server: { requests: readonly RecordedBody[] },
  expected: Expectation,
  run: () => Promise<unknown>,
): Promise<AgentSample> {
  const started = now();
  await run();
  const wallMs = now() - started;
  const modelCalls = server.requests.length;
  const problem =
    modelCalls === expected.modelCalls
      ? expected.check()
      : `${modelCalls} model calls, expected ${expected.modelCalls}`;
  if (problem !== undefined) throw new Error(`${variant}: ${problem}`);
  return { wallMs, modelCalls, tokensSent: tokensSent(server.requests) };
}

/** A table line for one variant: wall time, and its model calls, tokens and bound. */
export function agentLine(options: {
  benchmark: string;
  variant: string;
  samples: readonly AgentSample[];
  lowerBoundMs: number;
  baseline?: { label: string; samples: readonly AgentSample[] };
}): ResultLine {
  const { samples, lowerBoundMs, baseline } = options;
  const wall = samples.map((sample) => sample.wallMs);
  const median = summarize(wall).median;
  const modelCalls = summarize(samples.map((sample) => sample.modelCalls)).median;
  const tokens = summarize(samples.map((sample) => sample.tokensSent)).median;
  const notes = [
    `${modelCalls} model calls`,
    `${formatNumber(tokens)} tokens sent`,
    `bound ${formatMs(lowerBoundMs)}, ${formatSignedMs(median - lowerBoundMs)}`,
  ];
  const line: ResultLine = {
    benchmark: options.benchmark,
    variant: options.variant,
    value: summarize(wall),
    unit: 'ms',
    details: {
      modelCalls,
      tokensSent: tokens,
      lowerBoundMs,
      overLowerBoundMs: median - lowerBoundMs,
    },
    note: notes.join(' · '),
  };
  if (baseline) {
    const baselineWall = baseline.samples.map((sample) => sample.wallMs);
    line.ratio = { to: baseline.label, value: pairedRatios(wall, baselineWall) };
    const tokenRatio = pairedRatios(
      samples.map((sample) => sample.tokensSent),
      baseline.samples.map((sample) => sample.tokensSent),
    ).median;
    line.details = { ...line.details, tokensRatio: tokenRatio };
    notes.splice(2, 0, `tokens ${formatNumber(tokenRatio)}× ${baseline.label}`);
    line.note = notes.join(' · ');
  }
  return line;
}
