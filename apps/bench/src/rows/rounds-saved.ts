import { startScriptedOpenAIServer } from '@mtpx/providers/testing';
import { agentLine } from '../agents/agent-sample';
import { type AgentVariant, runVariant } from '../agents/agent-variant';
import { ToolLog } from '../agents/scenario-tools';
import {
  roundsSavedBounds,
  roundsSavedLevelByLevel,
  roundsSavedTask,
  roundsSavedTiming,
} from '../agents/scenarios';
import { prepareVercelRun } from '../agents/vercel-runs';
import type { BenchConfig } from '../config';
import type { RowResult } from '../support/results';
import { interleave } from '../support/stats';

/** What every variant's run must have done: 31 computed, three look-ups, the answer given. */
function roundsSavedCheck(log: ToolLog, answer: string): string | undefined {
  const last = log.calculations.at(-1);
  if (last?.operation !== 'add' || last.result !== 31) {
    return `the calculation ended with ${JSON.stringify(last)}, not add = 31`;
  }
  if (log.lookups.length !== 3) return `${log.lookups.length} look-ups, expected 3`;
  if (!answer.includes('= 31')) return `unexpected answer: ${answer}`;
  return undefined;
}

type RoundsSavedVariant = 'vercel';

/**
 * Row 3: the task of the issue against a scripted model (300 ms to first byte), run by
 * MTPX with one `$ref` response, by MTPX level by level, and by the Vercel AI SDK.
 */
export async function roundsSavedRow(config: BenchConfig): Promise<RowResult> {
  const { timeScale, repetitions } = config.agents;
  const firstByteDelayMs = roundsSavedTiming.firstByteMs * timeScale;
  const lookupMs = roundsSavedTiming.lookupMs * timeScale;
  const levelByLevelServer = () =>
    startScriptedOpenAIServer(roundsSavedLevelByLevel, { firstByteDelayMs });

  const variants: Record<RoundsSavedVariant, AgentVariant> = {
    vercel: {
      label: 'Vercel AI SDK `generateText` (ai 6), level by level',
      startServer: levelByLevelServer,
      prepare: (url, log) => prepareVercelRun(url, roundsSavedTask, log, { stream: false }),
      modelCalls: 5,
      lowerBoundMs: roundsSavedBounds.levelByLevel * timeScale,
    },
  };
  const order: RoundsSavedVariant[] = ['vercel'];
  const newLog = () => new ToolLog(() => lookupMs);
  const measure = (name: RoundsSavedVariant) => () =>
    runVariant(variants[name], newLog, roundsSavedCheck);

  // One untimed run of each first: module loading, JIT, the tokenizer's tables.
  for (const name of order) await measure(name)();
  const samples = await interleave(
    repetitions,
    order.map((name) => [name, measure(name)] as const),
  );
  const benchmark = '15 + (4 × (18 − 6)) / 3 and 3 look-ups';
  return {
    row: 3,
    title: 'Rounds saved',
    measures:
      'One task against a scripted OpenAI-compatible model (300 ms to first byte): wall time, model calls and tokens sent.',
    repetitions,
    lines: order.map((name) =>
      agentLine({
        benchmark,
        variant: variants[name].label,
        samples: samples[name],
        lowerBoundMs: variants[name].lowerBoundMs,
      }),
    ),
  };
}
