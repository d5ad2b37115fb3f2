import { type AgentSample, agentLine, sampleAgentRun } from '../agents/agent-sample';
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
import { vercelStream } from '../agents/vercel-runs';
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

function streamingLog(timeScale: number): ToolLog {
  return new ToolLog(
    (topic) => (streamingTiming.lookupMs[lookupTopics.indexOf(topic)] ?? 0) * timeScale,
  );
}

function streamingCheck(log: ToolLog, answer: () => string) {
  return () => {
    if (log.lookups.length !== 5) return `${log.lookups.length} look-ups, expected 5`;
    if (!answer().includes('Nile')) return `unexpected answer: ${answer()}`;
    return undefined;
  };
}

/**
 * Row 4: one streamed response of five independent look-ups (100 ms apart after 300 ms
 * to first byte; they take 600, 400, 200, 100, 50 ms), then a 300 ms answer: dispatching
 * each look-up as soon as it is complete against running them after the stream ends.
 */
export async function streamingDispatchRow(config: BenchConfig): Promise<RowResult> {
  const { timeScale, repetitions } = config.agents;
  const pacing = streamingPacing(timeScale);

  const vercel = async (): Promise<AgentSample> => {
    const server = await startPacedOpenAIServer(pacing);
    const log = streamingLog(timeScale);
    let answer = '';
    try {
      return await sampleAgentRun(
        'Vercel AI SDK',
        server,
        { modelCalls: 2, check: streamingCheck(log, () => answer) },
        async () => {
          answer = await vercelStream(server.url, streamingTask, log);
        },
      );
    } finally {
      await server.close();
    }
  };

  await vercel();
  const samples = await interleave(repetitions, [['vercel', vercel]] as const);
  const benchmark = '5 streamed look-ups (600/400/200/100/50 ms), then the answer';
  return {
    row: 4,
    title: 'Streaming dispatch',
    measures:
      'One streamed response of five independent look-ups, then the answer: wall time of dispatching each call as it completes vs after the stream ends.',
    repetitions,
    lines: [
      agentLine({
        benchmark,
        variant: 'Vercel AI SDK `streamText` (ai 6)',
        samples: samples.vercel,
        lowerBoundMs: streamingBounds.afterStreamEnds * timeScale,
      }),
    ],
  };
}
