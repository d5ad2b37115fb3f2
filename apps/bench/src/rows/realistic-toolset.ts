import { startScriptedOpenAIServer } from '@mtpx/providers/testing';
import {
  type AgentRunner,
  type AgentVariant,
  agentLines,
  measureVariants,
  repeated,
  setUpWith,
} from '../agents/agent-variant';
import { ToolsetLog } from '../agents/bfcl-tools';
import { mtpxToolsetRunner, vercelToolsetRunner } from '../agents/toolset-runs';
import {
  toolsetBounds,
  toolsetCheck,
  toolsetLevelByLevel,
  toolsetTask,
  toolsetTiming,
  toolsetWithReferences,
} from '../agents/toolset-scenario';
import type { BenchConfig } from '../config';
import type { RowResult } from '../support/results';

type ToolsetVariant = 'mtpx' | 'mtpxLevels' | 'vercel' | 'mtpxStrict';

/**
 * Row 8: the tokens a realistic toolset costs — the 29 functions of BFCL's trading bot and
 * ticket API (arrays, a nested object, optional parameters) offered on every request —
 * with our agent (one `$ref` response, and level by level), the Vercel AI SDK (level by
 * level), and our agent with `strictTools: true` (schemas enforced, so they accept `$ref`).
 */
export async function realisticToolsetRow(config: BenchConfig): Promise<RowResult> {
  const { timeScale, repetitions } = config.agents;
  const firstByteDelayMs = toolsetTiming.firstByteMs * timeScale;
  const server = (turns: typeof toolsetLevelByLevel) => (runs: number) =>
    startScriptedOpenAIServer(repeated(turns, runs), { firstByteDelayMs });
  const mtpx =
    (strictTools: boolean): AgentRunner<ToolsetLog> =>
    (url, log) =>
      mtpxToolsetRunner(url, toolsetTask, log, { strictTools });
  const vercel: AgentRunner<ToolsetLog> = (url, log) => vercelToolsetRunner(url, toolsetTask, log);

  const variants: Record<ToolsetVariant, AgentVariant<ToolsetLog>> = {
    mtpx: {
      label: 'MTPX agent `run`, one `$ref` response',
      setUp: setUpWith(server(toolsetWithReferences), mtpx(false)),
      modelCalls: 2,
      lowerBoundMs: toolsetBounds.withReferences * timeScale,
    },
    mtpxLevels: {
      label: 'MTPX agent `run`, level by level',
      setUp: setUpWith(server(toolsetLevelByLevel), mtpx(false)),
      modelCalls: 3,
      lowerBoundMs: toolsetBounds.levelByLevel * timeScale,
    },
    vercel: {
      label: 'Vercel AI SDK `generateText` (ai 6), level by level',
      setUp: setUpWith(server(toolsetLevelByLevel), vercel),
      modelCalls: 3,
      lowerBoundMs: toolsetBounds.levelByLevel * timeScale,
    },
    mtpxStrict: {
      label: 'MTPX agent `run`, one `$ref` response, `strictTools: true`',
      setUp: setUpWith(server(toolsetWithReferences), mtpx(true)),
      modelCalls: 2,
      lowerBoundMs: toolsetBounds.withReferences * timeScale,
    },
  };
  const order: ToolsetVariant[] = ['mtpx', 'mtpxLevels', 'vercel', 'mtpxStrict'];
  const samples = await measureVariants({
    variants,
    order,
    repetitions,
    newLog: () => new ToolsetLog(),
    check: toolsetCheck,
  });
  return {
    row: 8,
    title: 'Realistic toolset',
    measures:
      'One task over 29 BFCL functions (trading bot and ticket API) against a scripted OpenAI-compatible model (300 ms to first byte): tokens sent per request, wall time, model calls.',
    repetitions,
    lines: agentLines({
      benchmark: '29 BFCL tools: 8 calls, then the answer',
      variants,
      order,
      samples,
      baseline: { name: 'mtpx', label: 'MTPX' },
      peer: { name: 'vercel', label: 'Vercel' },
    }),
  };
}
