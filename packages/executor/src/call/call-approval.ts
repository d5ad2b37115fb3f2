import type { JsonObject, ToolCall } from '@mtpx/protocol';
import { errorMessage } from '../errors';
import { type CallNode, isDone } from '../run/call-node';
import type { AnyTool } from '../tools/toolkit';
import type { CallHost } from './call-host';

/**
 * Asks the approver with the call suspended: its concurrency slot goes to other calls
 * while a person decides, only its dependents wait, and the wait is reported
 * (`approval-requested` / `approval-resolved`) and kept out of the call's duration.
 */
export async function waitForApproval(
  run: CallHost,
  node: CallNode,
  tool: AnyTool,
  call: ToolCall,
  args: JsonObject,
): Promise<{ code: 'approval_required' | 'denied'; message: string } | undefined> {
  const askedAt = performance.now();
  if (run.listening) {
    run.emit({
      type: 'approval-requested',
      at: run.now(),
      callId: node.id,
      toolName: node.toolName,
    });
  }
  run.suspend(node);
  const refusal = await askApproval(run, tool, call, args);
  const waitMs = performance.now() - askedAt;
  node.approvalMs += waitMs;
  if (run.listening && !isDone(node)) {
    run.emit({
      type: 'approval-resolved',
      at: run.now(),
      callId: node.id,
      toolName: node.toolName,
      approved: refusal === undefined,
      waitMs,
    });
  }
  const slot = run.resume(node);
  if (slot !== undefined) await slot;
  return refusal;
}

/** `undefined` when approved, else why not. */
async function askApproval(
  run: CallHost,
  tool: AnyTool,
  call: ToolCall,
  args: JsonObject,
): Promise<{ code: 'approval_required' | 'denied'; message: string } | undefined> {
  const approve = run.services.approve;
  if (approve === undefined) {
    return {
      code: 'approval_required',
      message: `"${tool.name}" (risk level ${tool.risk_level}) needs approval and no approver is configured; it was not run.`,
    };
  }
  try {
    const approved = await approve(tool, call, args, { signal: run.signal });
    if (approved === true) return undefined;
    return { code: 'denied', message: `The approver declined "${tool.name}"; it was not run.` };
  } catch (error) {
    return {
      code: 'approval_required',
      message: `"${tool.name}" needs approval, but the approval handler failed (${errorMessage(error)}); it was not run.`,
    };
  }
}
