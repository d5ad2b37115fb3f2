import {
  type AnyTool,
  idempotencyKeyOf,
  type ToolContext,
  ToolExecutionError,
  type ToolProgress,
} from '@mtpx/executor';
import { type ArgumentValidator, timeLimitOf } from '@mtpx/executor/internal';
import { isToolOutput, type MediaLists, type ToolCall } from '@mtpx/protocol';
import type { CallStop, StopReason } from './call-stop';
import type { CallJobData, CallJobResult } from './wire';

/** What one attempt of a call on a worker came to. */
export type AttemptOutcome =
  | { result: CallJobResult; retryable: false }
  | { result: CallJobResult & { ok: false }; retryable: true; retryAfterMs: number | undefined };

/** What the worker gives one attempt. */
export interface AttemptOptions {
  /** 1 on the first try; BullMQ's `attemptsMade + 1` after that. */
  attempt: number;
  /** Stops the attempt: the run cancelled the call, or a closing worker hands it back. */
  stop: CallStop;
  /** Checks arguments as the in-process executor does. */
  validator: ArgumentValidator;
  /** Sends a progress report back to the orchestrator. */
  reportProgress(progress: ToolProgress): void;
}

const mediaKeys = ['images', 'videos', 'audios', 'files'] as const;

/**
 * The `context` of one attempt on a worker. A class, not an object literal: a getter in a
 * literal made per call costs V8 an old-space accessor pair that keeps the call's young
 * objects alive through every scavenge (see the MPL proxy's `NodeExchange`).
 */
class WorkerToolContext implements ToolContext {
  readonly call: ToolCall;
  readonly attempt: number;
  readonly runId: string | undefined;
  readonly reportProgress: (progress: ToolProgress) => void;
  readonly #stop: CallStop;
  readonly #data: CallJobData;
  #idempotencyKey: string | undefined;

  constructor(call: ToolCall, data: CallJobData, options: AttemptOptions) {
    this.call = call;
    this.attempt = options.attempt;
    this.runId = data.runId ?? undefined;
    this.reportProgress = options.reportProgress;
    this.#stop = options.stop;
    this.#data = data;
    this.#idempotencyKey = data.idempotencyKey;
  }

  get signal(): AbortSignal {
    return this.#stop.signal;
  }

  /** Computed on first read (most tools never read it), by the executor's own rule. */
  get idempotencyKey(): string {
    const data = this.#data;
    this.#idempotencyKey ??= idempotencyKeyOf(data.runId ?? undefined, data.callId, data.args);
    return this.#idempotencyKey;
  }
}

/**
 * Runs one attempt of a call as the in-process executor would: parse the arguments with
 * the tool's schema, call `execute` with a context carrying the orchestrator's
 * idempotency key, honour the tool's `timeout_ms`, and turn the outcome into an answer.
 * Never throws for the tool's failure.
 */
export async function runAttempt(
  tool: AnyTool,
  data: CallJobData,
  options: AttemptOptions,
): Promise<AttemptOutcome> {
  const check = options.validator.check(tool, data.args);
  if (!check.ok) {
    const code = check.schemaError ? 'tool_error' : 'invalid_arguments';
    return { result: { ok: false, code, message: check.message }, retryable: false };
  }
  const { stop } = options;
  if (stop.reason !== undefined) {
    const message = 'The run cancelled this call before it ran on a worker.';
    return { result: { ok: false, code: 'cancelled', message }, retryable: false };
  }
  const call: ToolCall = { id: data.callId, name: data.tool, arguments: data.args, depends_on: [] };
  const context = new WorkerToolContext(call, data, options);
  const limit = timeLimitOf(tool);
  // One promise for the attempt: the tool's outcome or its stop, whichever comes first.
  return new Promise<AttemptOutcome>((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let settled = false;
    const finish = (outcome: AttemptOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    stop.onStop((reason) => finish(stoppedOutcome(reason, limit)));
    if (limit !== undefined) timer = setTimeout(() => stop.stop('timeout'), limit);
    let value: unknown;
    try {
      value = tool.execute(check.value as never, context);
    } catch (error) {
      finish(failure(error));
      return;
    }
    if (isThenable(value)) {
      Promise.resolve(value).then(
        (resolved) => finish({ result: success(resolved), retryable: false }),
        (error: unknown) => finish(failure(error)),
      );
    } else finish({ result: success(value), retryable: false });
  });
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

function stoppedOutcome(reason: StopReason, limit: number | undefined): AttemptOutcome {
  if (reason === 'timeout') {
    const message = `The call did not finish within its time limit of ${limit} ms and was abandoned.`;
    return { result: { ok: false, code: 'timeout', message }, retryable: false };
  }
  const message = 'The run cancelled this call while it ran on a worker.';
  return { result: { ok: false, code: 'cancelled', message }, retryable: false };
}

function success(value: unknown): CallJobResult {
  if (!isToolOutput(value)) return { ok: true, content: value === undefined ? null : value };
  let media: MediaLists | undefined;
  for (const key of mediaKeys) {
    const list = value[key];
    if (list !== undefined && list.length > 0) media = { ...media, [key]: list };
  }
  const content = value.content ?? null;
  return media === undefined ? { ok: true, content } : { ok: true, content, media };
}

function failure(error: unknown): AttemptOutcome {
  if (ToolExecutionError.isInstance(error)) {
    const result = { ok: false as const, code: error.errorCode, message: error.message };
    if (error.retryable) return { result, retryable: true, retryAfterMs: error.retryAfterMs };
    return { result, retryable: false };
  }
  return { result: { ok: false, code: 'tool_error', message: messageOf(error) }, retryable: false };
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === 'string') return error;
  return `the tool threw ${String(error)}`;
}
