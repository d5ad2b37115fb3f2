import { MtpxError, type ToolErrorCode, ToolErrorCodeSchema } from '@mtpx/protocol';

const toolErrorMarkerName = 'mtpx.error.ToolExecutionError';
const toolErrorMarker = Symbol.for(toolErrorMarkerName);

/** What a tool may say about its own failure. */
export interface ToolExecutionErrorOptions {
  /** Written for the model (and person) reading the result: what failed and what to do. */
  message: string;
  /**
   * A {@link ToolErrorCode} becomes the result's `error_code` as is; any other string (a
   * tool's own code, such as `"division_by_zero"`) is kept on the error and the result's
   * `error_code` is `tool_error`. Defaults to `tool_error`.
   */
  code?: string;
  /** True when running the call again may succeed (a rate limit, a flaky network). */
  retryable?: boolean;
  /** How long to wait before the retry, when the tool knows (a `Retry-After` header). */
  retryAfterMs?: number;
  cause?: unknown;
}

/**
 * The error a tool throws to fail a call on purpose, with a code and whether a retry may
 * help. Any other thrown value also fails the call (`error_code: "tool_error"`, its
 * message as the error) but is never retried.
 *
 * @example
 * ```ts source="./errors.examples.ts#ToolExecutionError"
 * throw new ToolExecutionError({
 *   message: 'The weather service is rate limited.',
 *   retryable: true,
 * });
 * ```
 */
export class ToolExecutionError extends MtpxError<string> {
  protected readonly [toolErrorMarker] = true;

  /** True when running the call again may succeed. */
  readonly retryable: boolean;
  /** How long to wait before the retry, when the tool knows. */
  readonly retryAfterMs: number | undefined;

  constructor({
    message,
    code = 'tool_error',
    retryable = false,
    retryAfterMs,
    cause,
  }: ToolExecutionErrorOptions) {
    super({ code, message, cause });
    this.name = 'ToolExecutionError';
    this.retryable = retryable;
    this.retryAfterMs = retryAfterMs;
  }

  /** The result `error_code` this error becomes: its code when that is a ToolErrorCode, else `tool_error`. */
  get errorCode(): ToolErrorCode {
    return toToolErrorCode(this.code);
  }

  static override isInstance(error: unknown): error is ToolExecutionError {
    return MtpxError.hasMarker(error, toolErrorMarkerName);
  }
}

const toolErrorCodes = new Set<string>(ToolErrorCodeSchema.options);

/**
 * `code` when it is a {@link ToolErrorCode}, else `tool_error`.
 *
 * @internal
 */
export function toToolErrorCode(code: string): ToolErrorCode {
  return toolErrorCodes.has(code) ? (code as ToolErrorCode) : 'tool_error';
}

/** Mistakes in how the executor is used (never a model's mistake: those become results). */
export type ExecutorErrorCode =
  /** A tool or toolkit name is registered twice, or a tool claims a toolkit's prefix. */
  | 'duplicate_tool'
  /** A tool or toolkit definition is unusable (empty name, no `execute`, bad options). */
  | 'invalid_tool'
  /** A toolkit's loader threw or returned tools outside its prefix. */
  | 'toolkit_load_failed'
  /** An executor option is out of range. */
  | 'invalid_option'
  /** `add` was called on a run that has already ended. */
  | 'run_ended'
  /** A run's `events` were iterated a second time (they have one consumer; use `onEvent` for more). */
  | 'events_already_iterated'
  /** An `onEvent` callback threw; the run finished, but its results are withheld. */
  | 'event_handler_failed'
  /** A plan execution hook (`hold`, `knownResult`, `onResult`) threw; its results are withheld. */
  | 'hook_failed';

const executorErrorMarkerName = 'mtpx.error.ExecutorError';
const executorErrorMarker = Symbol.for(executorErrorMarkerName);

/**
 * A caller's mistake (a duplicate tool name, a call added after `end()`) or an
 * infrastructure failure (a toolkit that cannot load). Thrown; model mistakes never are.
 */
export class ExecutorError extends MtpxError<ExecutorErrorCode> {
  protected readonly [executorErrorMarker] = true;

  constructor(options: { code: ExecutorErrorCode; message: string; cause?: unknown }) {
    super(options);
    this.name = 'ExecutorError';
  }

  static override isInstance(error: unknown): error is ExecutorError {
    return MtpxError.hasMarker(error, executorErrorMarkerName);
  }
}

/**
 * True when a tool's failure says running the call again may succeed: a
 * {@link ToolExecutionError} with `retryable`, or an infrastructure error that reports
 * `isRetryable` (a remote call whose job was lost, whose deadline passed, or that Redis did
 * not take). Its result is flagged `retryable`, so a resumed run runs it again instead of
 * answering with the old failure.
 *
 * @internal
 */
export function isRetryableError(error: unknown): boolean {
  if (ToolExecutionError.isInstance(error)) return error.retryable;
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { isRetryable?: unknown }).isRetryable === true
  );
}

/** A thrown value's message, for an error result. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === 'string') return error;
  try {
    return `the tool threw ${JSON.stringify(error) ?? String(error)}`;
  } catch {
    return `the tool threw ${String(error)}`;
  }
}
