import type { JsonObject, RiskLevel } from '@mtpx/protocol';
import type { CallEventBase } from './event-base';

/**
 * Policy answered `ask` for a call and approval was asked for. The call waits for the
 * answer without holding a concurrency slot; only the calls that depend on it wait with it.
 */
export interface ApprovalRequestedEvent extends CallEventBase {
  type: 'approval-requested';
  /** The request's id (`apr_…`): the same in `approval-resolved` and in a run's pending approvals. */
  approvalId?: string;
  riskLevel?: RiskLevel;
  /** Why it needs approval, for people. */
  reason?: string;
  /** The arguments as the tool would receive them (`$ref`s resolved). */
  arguments?: JsonObject;
  /** Hex SHA-256 of their canonical JSON: what a decision is bound to. */
  argumentsDigest?: string;
}

/**
 * The approval was answered (or failed, or left pending). `waitMs` is the time a person
 * took; it is not counted in the call's `call-finished` `durationMs`.
 */
export interface ApprovalResolvedEvent extends CallEventBase {
  type: 'approval-resolved';
  approved: boolean;
  /** From `approval-requested` to the answer, in milliseconds. */
  waitMs: number;
  /** The request's id, as in `approval-requested`. */
  approvalId?: string;
  /** True when no decision came in the run: the call waits for one made later (`agent.resume`). */
  pending?: true;
}
