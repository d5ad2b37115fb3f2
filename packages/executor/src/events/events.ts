import type { Approval, PlanIssue, ToolErrorCode, ToolResult } from '@mtpx/protocol';
import type { ToolProgress } from '../tools/define-tool';
import type { ApprovalRequestedEvent, ApprovalResolvedEvent } from './approval-events';
import type { CallEventBase, ExecutorEventBase } from './event-base';
import type { CallHeldEvent, CallReleasedEvent } from './hold-events';
import type { CallThrottledEvent } from './throttle-events';

/** A plan execution began. For a plan, `callCount` and the plan's validation `issues` are known. */
export interface PlanStartedEvent extends ExecutorEventBase {
  type: 'plan-started';
  /** How many calls the plan holds (absent for a plan execution fed call by call). */
  callCount?: number;
  /** Every validation issue of the plan (each also reported on the calls it concerns). */
  issues: PlanIssue[];
}

/**
 * A call's dependencies are met and it is dispatched: its arguments are resolved and
 * validated, policy and cache consulted, and the tool invoked. Always followed by
 * `call-finished`.
 */
export interface CallStartedEvent extends CallEventBase {
  type: 'call-started';
}

/** A running tool reported progress through `context.reportProgress`. */
export interface CallProgressEvent extends CallEventBase {
  type: 'call-progress';
  progress: ToolProgress;
}

/** An attempt failed with a retryable error; the call runs again after `delayMs`. */
export interface CallRetriedEvent extends CallEventBase {
  type: 'call-retried';
  /** The attempt that failed (1 for the first). */
  attempt: number;
  delayMs: number;
  /** Why the attempt failed. */
  error: string;
}

/** A dispatched call is done — run, failed, refused by policy, reused from cache or cancelled. */
export interface CallFinishedEvent extends CallEventBase {
  type: 'call-finished';
  /** From `call-started` to now, without the time spent waiting for approval. */
  durationMs: number;
  /** Time spent waiting for a person's approval, when the call was asked about. */
  approvalMs?: number;
  success: boolean;
  /** True when the output came from the cache or an identical call of the same plan execution. */
  cached: boolean;
  /** The policy decision, once policy was consulted. */
  approval?: Approval;
  /** Why it did not succeed. */
  errorCode?: ToolErrorCode;
  result: ToolResult;
}

/**
 * A call was never dispatched: the plan is invalid where it is concerned
 * (`invalid_plan`), a call it depends on failed (`dependency_failed`), or the run was
 * cancelled first (`cancelled`). Its result has `skipped: true`.
 */
export interface CallSkippedEvent extends CallEventBase {
  type: 'call-skipped';
  errorCode: ToolErrorCode;
  /** Why, in the words the model will read. */
  error: string;
  result: ToolResult;
}

/** A result cache failed; the call went on as a cache miss. */
export interface CacheFailedEvent extends CallEventBase {
  type: 'cache-failed';
  operation: 'get' | 'set';
  error: string;
}

/** Every call has its result. */
export interface PlanFinishedEvent extends ExecutorEventBase {
  type: 'plan-finished';
  durationMs: number;
  succeeded: number;
  failed: number;
  /** Results with `skipped: true` (counted apart from `failed`). */
  skipped: number;
  /** One result per call, in plan (or add) order. */
  results: ToolResult[];
}

export type { ApprovalRequestedEvent, ApprovalResolvedEvent } from './approval-events';
export type { CallEventBase, ExecutorEventBase } from './event-base';
export type { CallHeldEvent, CallReleasedEvent } from './hold-events';
export type { CallThrottledEvent } from './throttle-events';

/** Everything a plan execution reports, discriminated by `type`. */
export type ExecutorEvent =
  | PlanStartedEvent
  | CallStartedEvent
  | CallHeldEvent
  | CallReleasedEvent
  | CallThrottledEvent
  | CallProgressEvent
  | CallRetriedEvent
  | ApprovalRequestedEvent
  | ApprovalResolvedEvent
  | CallFinishedEvent
  | CallSkippedEvent
  | CacheFailedEvent
  | PlanFinishedEvent;

/** Receives events as they happen; must not throw. */
export type ExecutorEventHandler = (event: ExecutorEvent) => void;
