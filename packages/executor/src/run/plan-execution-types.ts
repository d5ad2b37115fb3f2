import type { ToolCallInput, ToolResult } from '@mtpx/protocol';
import type { ExecutorEvent, ExecutorEventHandler } from '../events/events';

/** Results of earlier rounds by call id: `$ref`s and `depends_on` may name them. */
export type RunHistory = ReadonlyMap<string, ToolResult> | Readonly<Record<string, ToolResult>>;

/** Options of a run: `executor.start`, `execute`, `executeToolCalls`, `stream`. */
export interface RunOptions {
  /** Aborting it cancels the run: in-flight calls are aborted, unstarted ones skipped. */
  signal?: AbortSignal;
  /** Results of earlier rounds, by call id (a `Map` or a plain object). */
  history?: RunHistory;
  /** Receives every event as it happens. Must not throw (if it does, `results` rejects once the run is done). */
  onEvent?: ExecutorEventHandler;
  /** Stamped on every event as `runId` (an agent's run id). */
  runId?: string;
}

/**
 * A run fed call by call — the shape an agent uses while a model is still streaming.
 * A call whose dependencies (`depends_on`, `$ref` targets) are finished starts at once;
 * one that needs a call not added yet waits for it. `end()` says no more calls are
 * coming: calls still waiting for ids that never arrived fail (`invalid_plan`), as do
 * calls in a dependency cycle, and their dependents are skipped (`dependency_failed`).
 */
export interface ExecutionRun {
  /** The caller's run id, if given. */
  readonly runId: string | undefined;
  /** Aborted when the run is cancelled (each call also has its own signal, aborted with it). */
  readonly signal: AbortSignal;
  /** Adds one call (possibly malformed: it then gets an error result). Throws `run_ended` after `end()`. */
  add(call: ToolCallInput): void;
  /** No more calls are coming. Idempotent. */
  end(): void;
  /** Cancels the run, like aborting the `signal` given to `start`. */
  cancel(reason?: unknown): void;
  /** One result per added call, in add order, once `end()` was called and every call is done. Never rejects for a call's failure. */
  readonly results: Promise<ToolResult[]>;
  /**
   * The run's events as an async iterable (single consumer), from `plan-started` to
   * `plan-finished`. Buffering starts when this is first read: read it before adding calls.
   */
  readonly events: AsyncIterable<ExecutorEvent>;
}

/** Turns either history form into a lookup by call id. */
export function historyLookup(
  history: RunHistory | undefined,
): (id: string) => ToolResult | undefined {
  if (history === undefined) return () => undefined;
  if (history instanceof Map) return (id) => history.get(id);
  const record = history as Readonly<Record<string, ToolResult>>;
  return (id) => (Object.hasOwn(record, id) ? record[id] : undefined);
}
