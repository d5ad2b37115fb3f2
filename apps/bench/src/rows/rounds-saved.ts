import { startScriptedOpenAIServer } from '@mtpx/providers/testing';
import { type AgentSample, agentLine, sampleAgentRun } from '../agents/agent-sample';
import { ToolLog } from '../agents/scenario-tools';
import {
  roundsSavedBounds,
  roundsSavedLevelByLevel,
  roundsSavedTask,
  roundsSavedTiming,
} from '../agents/scenarios';
import { vercelGenerate } from '../agents/vercel-runs';
import type { BenchConfig } from '../config';
import type { RowResult } from '../support/results';
import { interleave } from '../support/stats';

/** The checks every variant's run must pass: 31 computed, three look-ups, the answer given. */
function roundsSavedCheck(log: ToolLog, answer: () => string) {
  return () => {
    const last = log.calculations.at(-1);
    if (last?.operation !== 'add' || last.result !== 31) {
      return `the calculation ended with ${JSON.stringify(last)}, not add = 31`;
    }
    if (log.lookups.length !== 3) return `${log.lookups.length} look-ups, expected 3`;
    if (!answer().includes('= 31')) return `unexpected answer: ${answer()}`;
    return undefined;
  };
}

/**
 * Row 3: the task of the issue against a scripted model (300 ms to first byte), run by
 * MTPX with one `$ref` response, by MTPX level by level, and by the Vercel AI SDK.
 */
export async function roundsSavedRow(config: BenchConfig): Promise<RowResult> {
  const { timeScale, repetitions } = config.agents;
  const firstByteDelayMs = roundsSavedTiming.firstByteMs * timeScale;
  const lookupMs = roundsSavedTiming.lookupMs * timeScale;

  const vercel = async (): Promise<AgentSample> => {
    const server = await startScriptedOpenAIServer(roundsSavedLevelByLevel, { firstByteDelayMs });
    const log = new ToolLog(() => lookupMs);
    let answer = '';
    try {
      return await sampleAgentRun(
        'Vercel AI SDK',
        server,
        { modelCalls: 5, check: roundsSavedCheck(log, () => answer) },
        async () => {
          answer = await vercelGenerate(server.url, roundsSavedTask, log);
        },
      );
    } finally {
      await server.close();
    }
  };

  // Warm every variant up once (module loading, JIT, the tokenizer's tables).
  await vercel();
  const samples = await interleave(repetitions, [['vercel', vercel]] as const);
  const bound = (ms: number) => ms * timeScale;
  const benchmark = '15 + (4 × (18 − 6)) / 3 and 3 look-ups';
  return {
    row: 3,
    title: 'Rounds saved',
    measures:
      'One task against a scripted OpenAI-compatible model (300 ms to first byte): wall time, model calls and tokens sent.',
    repetitions,
    lines: [
      agentLine({
        benchmark,
        variant: 'Vercel AI SDK `generateText` (ai 6), level by level',
        samples: samples.vercel,
        lowerBoundMs: bound(roundsSavedBounds.levelByLevel),
      }),
    ],
  };
}
