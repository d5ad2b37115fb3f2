import type { RetryBackoff } from '@mtpx/executor';
import { MtpxError } from '@mtpx/protocol';

const markerName = 'mtpx.error.RetryableCallError';
const marker = Symbol.for(markerName);

/**
 * Thrown to BullMQ (code `retry_scheduled`) for a retryable failure with attempts left, so
 * BullMQ retries the job (on whichever worker is free) after the retry delay (the tool's
 * own, else the executor's backoff).
 * It never reaches the orchestrator: the last attempt's failure does, as the call's error.
 */
export class RetryableCallError extends MtpxError<'retry_scheduled'> {
  protected readonly [marker] = true;
  /** The tool's own wait before the retry, when it knows one. */
  readonly retryAfterMs: number | undefined;

  constructor(message: string, retryAfterMs: number | undefined) {
    super({ code: 'retry_scheduled', message });
    this.name = 'RetryableCallError';
    this.retryAfterMs = retryAfterMs;
  }

  static override isInstance(error: unknown): error is RetryableCallError {
    return MtpxError.hasMarker(error, markerName);
  }
}

/**
 * BullMQ's backoff strategy for remote calls: the tool's `retryAfterMs` when it gave one,
 * else the executor's rule (`initialDelayMs × factor^(retry − 1)`, at most `maxDelayMs`;
 * 200 ms, × 2, 10 s by default).
 * @internal
 */
export function retryDelayOf(
  backoff: RetryBackoff = {},
): (attemptsMade: number, type?: string, error?: Error) => number {
  const initial = backoff.initialDelayMs ?? 200;
  const factor = backoff.factor ?? 2;
  const max = backoff.maxDelayMs ?? 10_000;
  return (attemptsMade, _type, error) => {
    if (RetryableCallError.isInstance(error) && error.retryAfterMs !== undefined) {
      return Math.min(max, Math.max(0, error.retryAfterMs));
    }
    return Math.min(max, initial * factor ** Math.max(0, attemptsMade - 1));
  };
}
