import type { EagerDispatchOption } from '@mtpx/agent';
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
  streamingWriteScript,
} from '../agents/scenarios';
import { vercelRunner } from '../agents/vercel-runs';
import type { BenchConfig } from '../config';
import type { RowResult } from '../support/results';

/** The two streamed model calls of row 4, paced as the issue describes, at `timeScale`. */
function streamingPacing(timeScale: number, script = streamingScript): PacedGroup[][] {
  const [lookups, answer] = script;
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

type StreamingVariant = 'eager' | 'afterStream' | 'vercel' | 'safeWrite' | 'allWrite';

/**
 * Row 4: one streamed response of five independent look-ups (100 ms apart after 300 ms
 * to first byte; they take 600, 400, 200, 100, 50 ms), then a 300 ms answer: each look-up
 * started as soon as it is complete, against all of them started after the stream ends.
 */
export async function streamingDispatchRow(config: BenchConfig): Promise<RowResult> {
  const { timeScale, repetitions } = config.agents;
  const pacing = streamingPacing(timeScale);
  const server = (runs: number) => startPacedOpenAIServer(repeated(pacing, runs));
  const writePacing = streamingPacing(timeScale, streamingWriteScript);
  const writeServer = (runs: number) => startPacedOpenAIServer(repeated(writePacing, runs));
  const mtpx =
    (eagerDispatch: EagerDispatchOption): AgentRunner =>
    (url, log) =>
      mtpxRunner(url, streamingTask, log, { stream: true, eagerDispatch });
  // The write variant: the same run with `notes.save` offered, which must run exactly once.
  const mtpxWrite =
    (eagerDispatch: EagerDispatchOption): AgentRunner =>
    (url, log) => {
      const run = mtpxRunner(url, streamingTask, log, {
        stream: true,
        eagerDispatch,
        withWriteTool: true,
      });
      return async () => {
        const answer = await run();
        const saved = log.current.notes.length;
        if (saved !== 1) throw new Error(`row 4: ${saved} notes saved, expected 1`);
        return answer;
      };
    };

  const variants: Record<StreamingVariant, AgentVariant> = {
    eager: {
      label: 'MTPX agent `stream`, eager dispatch',
      setUp: setUpWith(server, mtpx('safe')),
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
    safeWrite: {
      label: "MTPX agent `stream`, + a write call, `eagerDispatch: 'safe'` (write held to the end)",
      setUp: setUpWith(writeServer, mtpxWrite('safe')),
      modelCalls: 2,
      lowerBoundMs: streamingBounds.eager * timeScale,
    },
    allWrite: {
      label: "MTPX agent `stream`, + a write call, `eagerDispatch: 'all'`",
      setUp: setUpWith(writeServer, mtpxWrite('all')),
      modelCalls: 2,
      lowerBoundMs: streamingBounds.eager * timeScale,
    },
  };
  const order: StreamingVariant[] = ['eager', 'afterStream', 'vercel', 'safeWrite', 'allWrite'];
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
      // The write variants offer one tool more than the Vercel AI SDK's run.
      peer: { name: 'vercel', label: 'Vercel', sameTools: ['eager', 'afterStream'] },
    }),
  };
}
