import {
  type AgentRunner,
  type AgentVariant,
  agentLines,
  measureVariants,
  repeated,
  setUpWith,
} from '../agents/agent-variant';
import { mtpxRunner } from '../agents/mtpx-runs';
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
import { vercelRunner } from '../agents/vercel-runs';
import type { BenchConfig } from '../config';
import type { RowResult } from '../support/results';

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

type StreamingVariant = 'eager' | 'afterStream' | 'vercel';

/**
 * Row 4: one streamed response of five independent look-ups (100 ms apart after 300 ms
 * to first byte; they take 600, 400, 200, 100, 50 ms), then a 300 ms answer: each look-up
 * started as soon as it is complete, against all of them started after the stream ends.
 */
export async function streamingDispatchRow(config: BenchConfig): Promise<RowResult> {
  const { timeScale, repetitions } = config.agents;
  const pacing = streamingPacing(timeScale);
  const server = (runs: number) => startPacedOpenAIServer(repeated(pacing, runs));
  const mtpx =
    (eagerDispatch: boolean): AgentRunner =>
    (url, log) =>
      mtpxRunner(url, streamingTask, log, { stream: true, eagerDispatch });

  const variants: Record<StreamingVariant, AgentVariant> = {
    eager: {
      label: 'MTPX agent `stream`, eager dispatch',
      setUp: setUpWith(server, mtpx(true)),
      modelCalls: 2,
      lowerBoundMs: streamingBounds.eager * timeScale,
    },
    afterStream: {
      label: 'MTPX agent `stream`, `eagerDispatch: false`',
      setUp: setUpWith(server, mtpx(false)),
      modelCalls: 2,
      lowerBoundMs: streamingBounds.afterStreamEnds * timeScale,
    },
    vercel: {
      label: 'Vercel AI SDK `streamText` (ai 6)',
      setUp: setUpWith(server, (url, log) =>
        vercelRunner(url, streamingTask, log, { stream: true }),
      ),
      modelCalls: 2,
      lowerBoundMs: streamingBounds.afterStreamEnds * timeScale,
    },
  };
  const order: StreamingVariant[] = ['eager', 'afterStream', 'vercel'];
  const samples = await measureVariants({
    variants,
    order,
    repetitions,
    newLog: () =>
      new ToolLog(
        (topic) => (streamingTiming.lookupMs[lookupTopics.indexOf(topic)] ?? 0) * timeScale,
      ),
    check: streamingCheck,
  });
  return {
    row: 4,
    title: 'Streaming dispatch',
    measures:
      'One streamed response of five independent look-ups, then the answer: wall time when each call starts as soon as it is complete vs after the stream ends.',
    repetitions,
    lines: agentLines({
      benchmark: '5 streamed look-ups (600/400/200/100/50 ms), then the answer',
      variants,
      order,
      samples,
      baseline: { name: 'eager', label: 'eager' },
    }),
  };
}
