import type { JsonValue, ToolResult } from '@mtpx/protocol';
import type { ApprovalRequest, PlanApprovals } from '../approvals/plan-approvals';
import type { ExecutorEvent } from '../events/events';
import type { ExecutorServices } from '../executor-services';
import type { CallNode } from '../run/call-node';
import type { ToolProgress } from '../tools/define-tool';

/**
 * What the call runner needs from the plan execution that dispatched a call (internal):
 * the executor's services, `$ref` outputs, events, and the call's way back (`complete`).
 * An interface, so the call runner does not import the execution that imports it.
 */
export interface CallHost {
  readonly runId: string | undefined;
  /** Aborted when the execution is cancelled. */
  readonly signal: AbortSignal;
  readonly services: ExecutorServices;
  /** True when someone receives events; callers build no event otherwise. */
  readonly listening: boolean;
  /** The output a `$ref` to `id` resolves to, or `undefined`. */
  readonly outputOf: (id: string) => JsonValue | undefined;
  /** Records the result of a dispatched call (ignored once the call is done). */
  complete(node: CallNode, result: ToolResult): void;
  /** Joins an identical earlier call: true when `node` will get a copy of its result. */
  joinIdentical(tool: object, canonicalArguments: string, node: CallNode): boolean;
  /** Milliseconds since the execution started. */
  now(): number;
  emit(event: ExecutorEvent): void;
  /** A running call waits for a person: its concurrency slot goes to other calls meanwhile. */
  suspend(node: CallNode): void;
  /** The wait is over: resolves once the call holds a concurrency slot again. */
  resume(node: CallNode): Promise<void> | undefined;
  /** The execution's handling of approvals decided outside it, if any. */
  readonly approvals: PlanApprovals | undefined;
  /** Leaves a call waiting for a decision made outside the execution (`approvals.pending`). */
  leavePending(node: CallNode, request: ApprovalRequest): void;
  /** A hook of the execution threw: reported when the execution is done. */
  hookFailure(error: unknown): void;
  /** `reportProgress` of a running call. */
  progress(node: CallNode, progress: ToolProgress): void;
}
