import type { RetryBackoff } from '@mtpx/executor';

/**
 * Thrown to BullMQ for a retryable failure with attempts left, so BullMQ retries the job
 * (on whichever worker is free) after {@link retryDelayOf}'s wait.
 */
export class RetryableCallError extends Error {
  constructor(
    message: string,
    /** The tool's own wait before the retry, when it knows one. */
    readonly retryAfterMs: number | undefined,
  ) {
    super(message);
    this.name = 'RetryableCallError';
  }
}

/**
 * BullMQ's backoff strategy for remote calls: the tool's `retryAfterMs` when it gave one,
 * else the executor's rule (`initialDelayMs × factor^(retry − 1)`, at most `maxDelayMs`;
 * 200 ms, × 2, 10 s by default).
 */
export function retryDelayOf(
  backoff: RetryBackoff = {},
): (attemptsMade: number, type?: string, error?: Error) => number {
  const initial = backoff.initialDelayMs ?? 200;
  const factor = backoff.factor ?? 2;
  const max = backoff.maxDelayMs ?? 10_000;
  return (attemptsMade, _type, error) => {
    if (error instanceof RetryableCallError && error.retryAfterMs !== undefined) {
      return Math.min(max, Math.max(0, error.retryAfterMs));
    }
    return Math.min(max, initial * factor ** Math.max(0, attemptsMade - 1));
  };
}
