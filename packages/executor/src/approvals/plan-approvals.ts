import { createHash } from 'node:crypto';
import { canonicalJson, type JsonObject, type RiskLevel, type ToolCall } from '@mtpx/protocol';

/**
 * One call that policy says needs a person's approval, as it would run: its arguments
 * with every `$ref` resolved, and the digest those arguments are bound by.
 */
export interface ApprovalRequest {
  /** `apr_` + a digest of (run, call, tool, arguments): the same request keeps the same id. */
  approvalId: string;
  /** The run id of the plan execution (`""` when none was given). */
  runId: string;
  call: ToolCall;
  toolName: string;
  /** The arguments as the tool would receive them (`$ref`s resolved). */
  arguments: JsonObject;
  /** {@link argumentsDigest} of {@link ApprovalRequest.arguments}. */
  argumentsDigest: string;
  riskLevel: RiskLevel;
  /** Why it needs approval, for people: `risk level destructive: policy asks`. */
  reason: string;
}

/** A decision made for an approval request: run it, or answer it denied (the model reads `reason`). */
export type ApprovalAnswer = { approved: true } | { approved: false; reason?: string };

/** A call that cannot run before a pending approval is decided: it depends on the call that waits. */
export interface WaitingCall {
  callId: string;
  toolName: string;
  /** The call it needs, which waits for approval (or waits itself). */
  waitsOn: string;
}

/**
 * How a plan execution treats approvals that are answered outside it (option
 * `approvals` of `executor.start`): decisions already made (a resumed run's), and calls
 * left pending — no in-process approver, or the approver answered `'defer'`. A pending
 * call is answered `approval_required` with `skipped: true` and is not told to
 * `onResult`; calls that depend on it are answered so too (reported to `waiting`), while
 * everything else runs on.
 */
export interface PlanApprovals {
  /** A decision already made for exactly this request, or `undefined` (then it is asked or left pending). */
  decided?: (request: ApprovalRequest) => ApprovalAnswer | undefined;
  /** A call is left waiting for a decision made outside the execution. */
  pending: (request: ApprovalRequest) => void;
  /** A call waits because a call it depends on waits for approval. */
  waiting?: (call: WaitingCall) => void;
}

/** Hex SHA-256 of the canonical JSON of a call's resolved arguments: what a decision is bound to. */
export function argumentsDigest(args: JsonObject): string {
  return createHash('sha256')
    .update(canonicalJson(args) ?? 'null')
    .digest('hex');
}

/**
 * The approval id of a request: `apr_` + hex SHA-256 of the canonical JSON of
 * `[runId, callId, toolName, argumentsDigest]` (first 32 digits). Stable across processes,
 * so a run left waiting and resumed elsewhere names the same approval.
 */
export function approvalIdOf(
  runId: string,
  callId: string,
  toolName: string,
  digest: string,
): string {
  const text = canonicalJson([runId, callId, toolName, digest]) as string;
  return `apr_${createHash('sha256').update(text).digest('hex').slice(0, 32)}`;
}
