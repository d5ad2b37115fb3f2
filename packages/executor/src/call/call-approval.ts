import type { JsonObject, ToolCall } from '@mtpx/protocol';
import {
  type ApprovalAnswer,
  type ApprovalRequest,
  approvalIdOf,
  argumentsDigest,
} from '../approvals/plan-approvals';
import { errorMessage } from '../errors';
import { type CallNode, isDone } from '../run/call-node';
import type { AnyTool } from '../tools/toolkit';
import type { CallHost } from './call-host';

/** How an approval ended: run the call, refuse it, or leave it pending outside the run. */
export type ApprovalOutcome =
  | { kind: 'approved' }
  | { kind: 'refused'; code: 'approval_required' | 'denied'; message: string }
  | { kind: 'pending'; request: ApprovalRequest };

/**
 * Asks for approval with the call suspended: its concurrency slot goes to other calls
 * while a person decides, only its dependents wait, and the wait is reported
 * (`approval-requested` / `approval-resolved`) and kept out of the call's duration. A
 * decision made earlier (the execution's `approvals.decided`) answers at once; with
 * `approvals` and no approver (or an approver answering `'defer'`) the call is left
 * pending.
 */
export async function waitForApproval(
  run: CallHost,
  node: CallNode,
  tool: AnyTool,
  call: ToolCall,
  args: JsonObject,
): Promise<ApprovalOutcome> {
  const askedAt = performance.now();
  const request = approvalRequest(run, node, tool, call, args);
  if (run.listening) {
    run.emit({
      type: 'approval-requested',
      at: run.now(),
      callId: node.id,
      toolName: node.toolName,
      approvalId: request.approvalId,
      riskLevel: request.riskLevel,
      reason: request.reason,
      arguments: args,
      argumentsDigest: request.argumentsDigest,
    });
  }
  let outcome = decidedOutcome(run, tool, request);
  if (outcome === undefined) {
    run.suspend(node);
    outcome = await askApprover(run, tool, request);
  }
  const waitMs = performance.now() - askedAt;
  node.approvalMs += waitMs;
  if (run.listening && !isDone(node)) {
    run.emit({
      type: 'approval-resolved',
      at: run.now(),
      callId: node.id,
      toolName: node.toolName,
      approved: outcome.kind === 'approved',
      waitMs,
      approvalId: request.approvalId,
      ...(outcome.kind === 'pending' ? { pending: true } : {}),
    });
  }
  const slot = run.resume(node);
  if (slot !== undefined) await slot;
  return outcome;
}

function approvalRequest(
  run: CallHost,
  node: CallNode,
  tool: AnyTool,
  call: ToolCall,
  args: JsonObject,
): ApprovalRequest {
  const digest = argumentsDigest(args);
  const runId = run.runId ?? '';
  const riskLevel = tool.risk_level ?? 'read_only';
  return {
    approvalId: approvalIdOf(runId, node.id, node.toolName, digest),
    runId,
    call,
    toolName: node.toolName,
    arguments: args,
    argumentsDigest: digest,
    riskLevel,
    reason: `risk level ${riskLevel}: the policy asks for approval of "${tool.name}"`,
  };
}

/** A decision made before this execution (the `approvals.decided` hook), if any. */
function decidedOutcome(
  run: CallHost,
  tool: AnyTool,
  request: ApprovalRequest,
): ApprovalOutcome | undefined {
  const decided = run.approvals?.decided;
  if (decided === undefined) return undefined;
  let answer: ApprovalAnswer | undefined;
  try {
    answer = decided(request);
  } catch (error) {
    run.hookFailure(error);
    return refused(
      'approval_required',
      `"${tool.name}" needs approval, but the decision could not be read; it was not run.`,
    );
  }
  if (answer === undefined) return undefined;
  if (answer.approved === true) return { kind: 'approved' };
  // Worded as an in-process approver's refusal, so the model reads the same either way.
  const why = answer.reason === undefined || answer.reason === '' ? '' : ` (${answer.reason})`;
  return refused('denied', `The approver declined "${tool.name}"${why}; it was not run.`);
}

async function askApprover(
  run: CallHost,
  tool: AnyTool,
  request: ApprovalRequest,
): Promise<ApprovalOutcome> {
  const approve = run.services.approve;
  const deferrable = run.approvals !== undefined;
  if (approve === undefined) {
    if (deferrable) return { kind: 'pending', request };
    return refused(
      'approval_required',
      `"${tool.name}" (risk level ${tool.risk_level}) needs approval and no approver is configured; it was not run.`,
    );
  }
  try {
    const answer = await approve(tool, request.call, request.arguments, { signal: run.signal });
    if (answer === true) return { kind: 'approved' };
    if (answer === 'defer') {
      if (deferrable) return { kind: 'pending', request };
      return refused(
        'approval_required',
        `"${tool.name}" needs approval and the approver deferred it, but this run cannot wait for a later decision; it was not run.`,
      );
    }
    return refused('denied', `The approver declined "${tool.name}"; it was not run.`);
  } catch (error) {
    return refused(
      'approval_required',
      `"${tool.name}" needs approval, but the approval handler failed (${errorMessage(error)}); it was not run.`,
    );
  }
}

function refused(code: 'approval_required' | 'denied', message: string): ApprovalOutcome {
  return { kind: 'refused', code, message };
}
