import { sqlStateOf } from './postgres-connection';

/** How a store retries an operation that failed for a passing reason. */
export interface PostgresRetryOptions {
  /** Tries in all, the first included (1: no retry). Default 8. */
  attempts?: number;
  /** The wait before the first retry, in milliseconds, doubled after each. Default 50. */
  baseDelayMs?: number;
  /** The longest wait between two tries, in milliseconds. Default 2,000. */
  maxDelayMs?: number;
  /** Hears each failure that is retried (for logs and metrics); must not throw. */
  onRetry?: (event: { error: unknown; attempt: number; delayMs: number }) => void;
}

/**
 * SQLSTATEs worth a retry: the transaction lost a race (`40001` serialization failure,
 * `40P01` deadlock), the server is going away or not up yet (`57P01` admin shutdown,
 * `57P02` crash shutdown, `57P03` cannot connect now), or the connection broke (`08…`).
 */
const transientStates = new Set([
  '40001',
  '40P01',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '53300', // too many connections
]);

/** Node socket errors of a connection that broke or could not be made. */
const transientSocketCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/**
 * True when `error` is a failure that trying again can fix: a dropped or refused
 * connection, a server shutting down or starting, a serialization failure or deadlock.
 * A constraint violation, a syntax error or a bad value is not.
 */
export function isTransientPostgresError(error: unknown): boolean {
  const state = sqlStateOf(error);
  if (state !== undefined) return transientStates.has(state);
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && transientSocketCodes.has(code)) return true;
  const message = error instanceof Error ? error.message : '';
  // node-postgres's own errors for a connection that ended under a query or a checkout.
  return /Connection terminated|connection timeout|Client has encountered a connection error|Client was closed and is not queryable|Connection ended/i.test(
    message,
  );
}

/**
 * Runs `work`, trying again after a transient failure ({@link isTransientPostgresError})
 * with exponential backoff, at most `attempts` times in all; `onRetry` hears each retry.
 * @internal
 * `work` must be safe to run again (idempotent, or able to recognise its own earlier
 * write).
 */
export async function withRetries<T>(
  work: (attempt: number) => Promise<T>,
  options: PostgresRetryOptions = {},
): Promise<T> {
  const attempts = Math.max(1, Math.floor(options.attempts ?? 8));
  const base = Math.max(0, options.baseDelayMs ?? 50);
  const max = Math.max(base, options.maxDelayMs ?? 2000);
  for (let attempt = 1; ; attempt++) {
    try {
      return await work(attempt);
    } catch (error) {
      if (attempt >= attempts || !isTransientPostgresError(error)) throw error;
      const delay = Math.min(max, base * 2 ** (attempt - 1));
      try {
        options.onRetry?.({ error, attempt, delayMs: delay });
      } catch {
        // An observer's failure must not change the retry.
      }
      await new Promise<void>((resolve) => setTimeout(resolve, delay));
    }
  }
}
