import { agentLine } from '../agents/agent-sample';
import { type AgentVariant, runVariant } from '../agents/agent-variant';
import {
  type PacedGroup,
  startPacedOpenAIServer,
  toolCallsOneByOne,
  wholeTurnAt,
} from '../agents/paced-openai-server';
import { lookupTopics, ToolLog } from '../agents/scenario-tools';
import {
  streamingBounds,
  streamingScript,
  streamingTask,
  streamingTiming,
} from '../agents/scenarios';
import { prepareVercelRun } from '../agents/vercel-runs';
import type { BenchConfig } from '../config';
import type { RowResult } from '../support/results';
import { interleave } from '../support/stats';

/** The two streamed model calls of row 4, paced as the issue describes, at `timeScale`. */
function streamingPacing(timeScale: number): PacedGroup[][] {
  const [lookups, answer] = streamingScript;
  if (!lookups || !answer) throw new Error('row 4: the script needs two turns');
  const firstByteMs = streamingTiming.firstByteMs * timeScale;
  return [
    toolCallsOneByOne(lookups, firstByteMs, streamingTiming.gapMs * timeScale),
    wholeTurnAt(answer, firstByteMs),
  ];
}

/** What every variant's run must have done: five look-ups, the answer given. */
function streamingCheck(log: ToolLog, answer: string): string | undefined {
  if (log.lookups.length !== 5) return `${log.lookups.length} look-ups, expected 5`;
  if (!answer.includes('Nile')) return `unexpected answer: ${answer}`;
  return undefined;
}

type StreamingVariant = 'vercel';

/**
 * Row 4: one streamed response of five independent look-ups (100 ms apart after 300 ms
 * to first byte; they take 600, 400, 200, 100, 50 ms), then a 300 ms answer: dispatching
 * each look-up as soon as it is complete against running them after the stream ends.
 */
export async function streamingDispatchRow(config: BenchConfig): Promise<RowResult> {
  const { timeScale, repetitions } = config.agents;
  const pacing = streamingPacing(timeScale);
  const startServer = () => startPacedOpenAIServer(pacing);

  const variants: Record<StreamingVariant, AgentVariant> = {
    vercel: {
      label: 'Vercel AI SDK `streamText` (ai 6)',
      startServer,
      prepare: (url, log) => prepareVercelRun(url, streamingTask, log, { stream: true }),
      modelCalls: 2,
      lowerBoundMs: streamingBounds.afterStreamEnds * timeScale,
    },
  };
  const order: StreamingVariant[] = ['vercel'];
  const newLog = () =>
    new ToolLog(
      (topic) => (streamingTiming.lookupMs[lookupTopics.indexOf(topic)] ?? 0) * timeScale,
    );
  const measure = (name: StreamingVariant) => () =>
    runVariant(variants[name], newLog, streamingCheck);

  for (const name of order) await measure(name)();
  const samples = await interleave(
    repetitions,
    order.map((name) => [name, measure(name)] as const),
  );
  const benchmark = '5 streamed look-ups (600/400/200/100/50 ms), then the answer';
  return {
    row: 4,
    title: 'Streaming dispatch',
    measures:
      'One streamed response of five independent look-ups, then the answer: wall time when each call starts as soon as it is complete vs after the stream ends.',
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
