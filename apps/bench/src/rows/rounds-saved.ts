import { startScriptedOpenAIServer } from '@mtpx/providers/testing';
import {
  type AgentRunner,
  type AgentVariant,
  agentLines,
  measureVariants,
  repeated,
  setUpWith,
} from '../agents/agent-variant';
import { mtpxRunner } from '../agents/mtpx-runs';
import { ToolLog } from '../agents/scenario-tools';
import {
  roundsSavedBounds,
  roundsSavedLevelByLevel,
  roundsSavedTask,
  roundsSavedTiming,
  roundsSavedWithReferences,
} from '../agents/scenarios';
import { vercelRunner } from '../agents/vercel-runs';
import type { BenchConfig } from '../config';
import type { RowResult } from '../support/results';

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

type RoundsSavedVariant = 'mtpx' | 'mtpxLevels' | 'vercel';

/**
 * Row 3: the task of the issue against a scripted model (300 ms to first byte), run by
 * our agent with one `$ref` response, by our agent level by level, and by the Vercel AI
 * SDK (level by level: it has no references).
 */
export async function roundsSavedRow(config: BenchConfig): Promise<RowResult> {
  const { timeScale, repetitions } = config.agents;
  const firstByteDelayMs = roundsSavedTiming.firstByteMs * timeScale;
  const lookupMs = roundsSavedTiming.lookupMs * timeScale;
  const server = (turns: typeof roundsSavedLevelByLevel) => (runs: number) =>
    startScriptedOpenAIServer(repeated(turns, runs), { firstByteDelayMs });
  const mtpx: AgentRunner = (url, log) => mtpxRunner(url, roundsSavedTask, log, { stream: false });
  const vercel: AgentRunner = (url, log) =>
    vercelRunner(url, roundsSavedTask, log, { stream: false });

  const variants: Record<RoundsSavedVariant, AgentVariant> = {
    mtpx: {
      label: 'MTPX agent `run`, one `$ref` response',
      setUp: setUpWith(server(roundsSavedWithReferences), mtpx),
      modelCalls: 2,
      lowerBoundMs: roundsSavedBounds.withReferences * timeScale,
    },
    mtpxLevels: {
      label: 'MTPX agent `run`, level by level',
      setUp: setUpWith(server(roundsSavedLevelByLevel), mtpx),
      modelCalls: 5,
      lowerBoundMs: roundsSavedBounds.levelByLevel * timeScale,
    },
    vercel: {
      label: 'Vercel AI SDK `generateText` (ai 6), level by level',
      setUp: setUpWith(server(roundsSavedLevelByLevel), vercel),
      modelCalls: 5,
      lowerBoundMs: roundsSavedBounds.levelByLevel * timeScale,
    },
  };
  const order: RoundsSavedVariant[] = ['mtpx', 'mtpxLevels', 'vercel'];
  const samples = await measureVariants({
    variants,
    order,
    repetitions,
    newLog: () => new ToolLog(() => lookupMs),
    check: roundsSavedCheck,
  });
  return {
    row: 3,
    title: 'Rounds saved',
    measures:
      'One task against a scripted OpenAI-compatible model (300 ms to first byte): wall time, model calls and tokens sent.',
    repetitions,
    lines: agentLines({
      benchmark: '15 + (4 × (18 − 6)) / 3 and 3 look-ups',
      variants,
      order,
      samples,
      baseline: { name: 'mtpx', label: 'MTPX' },
      peer: { name: 'vercel', label: 'Vercel' },
    }),
  };
}
