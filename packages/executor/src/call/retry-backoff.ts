import { ExecutorError } from '../errors';

/** How long to wait before retrying a call that failed with a retryable error. */
export interface RetryBackoff {
  /** Wait before the first retry, in milliseconds. Default 200. */
  initialDelayMs?: number;
  /** Each further retry waits this many times longer. Default 2. */
  factor?: number;
  /** Upper bound of any wait. Default 10,000. */
  maxDelayMs?: number;
  /** Spread waits at random over [delay/2, delay] so retries do not arrive in lockstep. Default true. */
  jitter?: boolean;
}

/** {@link RetryBackoff} with every field set. */
export type ResolvedRetryBackoff = Required<RetryBackoff>;

/** Fills in defaults and checks ranges. */
export function resolveRetryBackoff(backoff: RetryBackoff = {}): ResolvedRetryBackoff {
  const resolved = {
    initialDelayMs: backoff.initialDelayMs ?? 200,
    factor: backoff.factor ?? 2,
    maxDelayMs: backoff.maxDelayMs ?? 10_000,
    jitter: backoff.jitter ?? true,
  };
  for (const key of ['initialDelayMs', 'factor', 'maxDelayMs'] as const) {
    const value = resolved[key];
    if (!(Number.isFinite(value) && value >= 0)) {
      throw new ExecutorError({
        code: 'invalid_option',
        message: `retryBackoff.${key} must be a non-negative number, got ${String(value)}.`,
      });
    }
  }
  return resolved;
}

/**
 * The wait before retry number `retry` (1 for the first retry): exponential, capped, with
 * jitter. A tool's own `retryAfterMs` wins when given.
 */
export function retryDelay(
  backoff: ResolvedRetryBackoff,
  retry: number,
  retryAfterMs: number | undefined,
  random: () => number = Math.random,
): number {
  if (retryAfterMs !== undefined && Number.isFinite(retryAfterMs) && retryAfterMs >= 0) {
    return retryAfterMs;
  }
  const exponential = Math.min(
    backoff.maxDelayMs,
    backoff.initialDelayMs * backoff.factor ** (retry - 1),
  );
  return backoff.jitter ? Math.round(exponential / 2 + (random() * exponential) / 2) : exponential;
}
