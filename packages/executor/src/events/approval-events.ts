import type { CallEventBase } from './event-base';

/**
 * Policy answered `ask` for a call and the approver was asked. The call waits for the
 * answer without holding a concurrency slot; only the calls that depend on it wait with it.
 */
export interface ApprovalRequestedEvent extends CallEventBase {
  type: 'approval-requested';
}

/**
 * The approver answered (or failed). `waitMs` is the time a person took; it is not
 * counted in the call's `call-finished` `durationMs`.
 */
export interface ApprovalResolvedEvent extends CallEventBase {
  type: 'approval-resolved';
  approved: boolean;
  /** From `approval-requested` to the answer, in milliseconds. */
  waitMs: number;
}
