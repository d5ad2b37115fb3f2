import { jobIdOf } from '@mtpx/bullmq/internal';
import type { ExecutorEvent } from '@mtpx/executor';
import { Redis } from 'ioredis';
import { redisConnection } from './redis-keys';

/** Where one remote hop's time goes, in milliseconds (means over a run's calls). */
export interface HopBreakdown {
  /** Dispatch → a worker holds the job: the enqueue, the worker's wake-up, its move to active. */
  pickupMs: number;
  /** Active → the worker has the tool's answer: argument parsing and the tool itself. */
  runMs: number;
  /** The worker's answer → the orchestrator's result: moving the job to completed, the event, its read. */
  answerMs: number;
}

/** Records when each call of a run was dispatched and finished, by the wall clock BullMQ stamps jobs with. */
export function hopClock(): {
  onEvent: (event: ExecutorEvent) => void;
  times: Map<string, [number, number]>;
} {
  const times = new Map<string, [number, number]>();
  return {
    times,
    onEvent: (event) => {
      if (event.type === 'call-started') times.set(event.callId, [Date.now(), 0]);
      else if (event.type === 'call-finished') {
        const entry = times.get(event.callId);
        if (entry) entry[1] = Date.now();
      }
    },
  };
}

/**
 * Reads the run's jobs back (BullMQ stamps `timestamp`, `processedOn` and `finishedOn` in
 * whole milliseconds; over a run's many calls the means are still informative).
 */
export async function hopBreakdown(
  prefix: string,
  queueName: string,
  runId: string,
  times: ReadonlyMap<string, readonly [number, number]>,
): Promise<HopBreakdown> {
  const redis = new Redis(redisConnection);
  try {
    let pickup = 0;
    let run = 0;
    let answer = 0;
    let count = 0;
    for (const [callId, [started, finished]] of times) {
      // The job's hash, as BullMQ keeps it: `<prefix>:<queue>:<job id>`.
      const [processedOn, finishedOn] = (
        await redis.hmget(
          `${prefix}:${queueName}:${jobIdOf(runId, callId)}`,
          'processedOn',
          'finishedOn',
        )
      ).map(Number);
      if (!processedOn || !finishedOn || finished === 0) continue;
      pickup += processedOn - started;
      run += finishedOn - processedOn;
      answer += finished - finishedOn;
      count += 1;
    }
    const mean = (total: number) => (count === 0 ? 0 : total / count);
    return { pickupMs: mean(pickup), runMs: mean(run), answerMs: mean(answer) };
  } finally {
    await redis.quit();
  }
}
