import type { ToolCall, ToolCallInput, ToolResult } from '@mtpx/protocol';
import type { PlanApprovals } from '../approvals/plan-approvals';
import type { ExecutorEvent, ExecutorEventHandler } from '../events/events';
import type { AnyTool } from '../tools/toolkit';

/** Results of earlier rounds by call id: `$ref`s and `depends_on` may name them. */
export type RunHistory = ReadonlyMap<string, ToolResult> | Readonly<Record<string, ToolResult>>;

/**
 * Decides whether a call is held until the caller says the calls may run
 * ({@link PlanExecution.release}) or must not ({@link PlanExecution.dropHeld}): a reason
 * for people (`risk level write`) holds it, `undefined` lets it start as soon as its
 * dependencies are met. `tool` is the loaded tool the call names (`undefined` when none is
 * loaded under that name). Asked once per well-formed call; a call that depends on a held
 * call is held as well, without asking. {@link holdSideEffects} is the rule safe eager
 * dispatch uses.
 */
export type HoldRule = (call: ToolCall, tool: AnyTool | undefined) => string | undefined;

/**
 * A source of results already known for a call (a run journal of a resumed run): the
 * result for the same call id and arguments, or `undefined`. A known call is answered
 * with it and never run; no event is emitted for it, and calls that reference it resolve
 * against it as against any result.
 */
export type KnownResultSource = (call: ToolCall) => ToolResult | undefined;

/**
 * Told each result of a call that ran (dispatched and not cancelled — not the calls that
 * were skipped, answered from {@link KnownResultSource}, or cancelled), as the call
 * finishes: where a journal records results. Must not throw (if it does, `results`
 * rejects once the execution is done).
 */
export type ResultRecorder = (call: ToolCall, result: ToolResult) => void;

/** Options of a plan execution: `executor.start`, `execute`, `executeToolCalls`, `stream`. */
export interface PlanExecutionOptions {
  /** Aborting it cancels the execution: in-flight calls are aborted, unstarted ones skipped. */
  signal?: AbortSignal;
  /** Results of earlier rounds, by call id (a `Map` or a plain object). */
  history?: RunHistory;
  /** Receives every event as it happens. Must not throw (if it does, `results` rejects once the execution is done). */
  onEvent?: ExecutorEventHandler;
  /** Stamped on every event as `runId` (an agent's run id). */
  runId?: string;
  /**
   * Holds calls until {@link PlanExecution.release} or {@link PlanExecution.dropHeld}
   * (safe eager dispatch: `hold: holdSideEffects`). Each held call is reported with
   * `call-held`, each released one with `call-released`. Default: nothing is held.
   */
  hold?: HoldRule;
  /** Results already known (a run journal): such calls are answered, never run. */
  knownResult?: KnownResultSource;
  /** Told each result of a call that ran, as it finishes (a run journal records it). */
  onResult?: ResultRecorder;
  /**
   * Approvals decided outside the execution: decisions already made (`decided`), and
   * calls left pending (`pending`) when no approver is configured or the approver answers
   * `'defer'` — such a call, and every call that depends on it, is answered
   * `approval_required` (skipped, not told to `onResult`) while the others run on.
   * Without it, an `ask` with no approver is answered `approval_required` for the model.
   */
  approvals?: PlanApprovals;
}

/**
 * A plan execution fed call by call — the shape an agent uses while a model is still
 * streaming. A call whose dependencies (`depends_on`, `$ref` targets) are finished starts
 * at once; one that needs a call not added yet waits for it. `end()` says no more calls
 * are coming: calls still waiting for ids that never arrived fail (`invalid_plan`), as do
 * calls in a dependency cycle, and their dependents are skipped (`dependency_failed`).
 * Every per-call rule is decided here: bounds, duplicate and reused ids, dependency
 * waits, holds (`hold`) and known results (`knownResult`).
 */
export interface PlanExecution {
  /** The caller's run id, if given. */
  readonly runId: string | undefined;
  /** Aborted when the execution is cancelled (each call also has its own signal, aborted with it). */
  readonly signal: AbortSignal;
  /**
   * Adds one call (possibly malformed: it then gets an error result). Of several calls
   * with one id, the first added runs and the later ones are answered `invalid_plan`; so
   * is a call reusing an id of `history`. Throws `run_ended` after `end()`.
   */
  add(call: ToolCallInput): void;
  /** No more calls are coming. Idempotent. Held calls stay held until `release` or `dropHeld`. */
  end(): void;
  /**
   * Lets the held calls go, in the order they were added (each with `call-released`; it
   * starts once its dependencies are met), and holds nothing from now on. Idempotent.
   */
  release(): void;
  /**
   * Answers every held call `cancelled` with `message` (a `call-skipped` each; they never
   * run, and calls that need them fail), and answers so every call that would be held from
   * now on. Idempotent.
   */
  dropHeld(message: string): void;
  /** Cancels the execution, like aborting the `signal` given to `start`. */
  cancel(reason?: unknown): void;
  /** One result per added call, in add order, once `end()` was called and every call is done. Never rejects for a call's failure. */
  readonly results: Promise<ToolResult[]>;
  /**
   * The execution's events as an async iterable (single consumer), from `plan-started` to
   * `plan-finished`. Buffering starts when this is first read: read it before adding calls.
   */
  readonly events: AsyncIterable<ExecutorEvent>;
}

/** @deprecated Use {@link PlanExecution}; removed in the next minor. */
export type ExecutionRun = PlanExecution;

/** @deprecated Use {@link PlanExecutionOptions}; removed in the next minor. */
export type RunOptions = PlanExecutionOptions;

/** Turns either history form into a lookup by call id. */
export function historyLookup(
  history: RunHistory | undefined,
): (id: string) => ToolResult | undefined {
  if (history === undefined) return () => undefined;
  if (history instanceof Map) return (id) => history.get(id);
  const record = history as Readonly<Record<string, ToolResult>>;
  return (id) => (Object.hasOwn(record, id) ? record[id] : undefined);
}
