import type { ToolProgress } from '@mtpx/executor';
import { isJsonObject } from '@mtpx/protocol';
import { RemoteToolError } from './errors';

/** The error of calls still waiting when the remote tools close. */
export function closedError(): RemoteToolError {
  return new RemoteToolError({ code: 'closed', message: 'The remote tools were closed.' });
}

/** The error of a call whose job vanished from Redis while it waited. */
export function jobLost(): RemoteToolError {
  return new RemoteToolError({
    code: 'job_lost',
    message:
      "The call's job no longer exists in Redis: it was lost with Redis's data (a restart without persistence, or a flush) before the call answered. The call may or may not have run; running it again is safe, it keeps its idempotency key.",
  });
}

/** The error of a call whose job Redis did not take (so it never ran). */
export function redisUnavailable(cause: unknown): RemoteToolError {
  return new RemoteToolError({
    code: 'redis_unavailable',
    message: `Redis did not take the call's job, so the call did not run: ${messageOf(cause)}. Running it again is safe.`,
    cause,
  });
}

/** The error of a call whose deadline passed. */
export function deadlineExceeded(deadlineMs: number): RemoteToolError {
  return new RemoteToolError({
    code: 'deadline_exceeded',
    message: `The remote call did not answer within its deadline of ${deadlineMs} ms (queueing, every attempt and the way back count); its job was cancelled. Running it again is safe: it keeps its idempotency key.`,
  });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A worker's progress report, kept to the {@link ToolProgress} fields. */
export function toProgress(data: unknown): ToolProgress | undefined {
  if (!isJsonObject(data)) return undefined;
  const progress: ToolProgress = {};
  if (typeof data.message === 'string') progress.message = data.message;
  if (typeof data.completed === 'number') progress.completed = data.completed;
  if (typeof data.total === 'number') progress.total = data.total;
  if (data.data !== undefined) progress.data = data.data;
  return progress;
}
