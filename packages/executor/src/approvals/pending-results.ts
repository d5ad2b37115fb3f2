import type { ToolResult } from '@mtpx/protocol';
import { errorResult, type ResultTarget } from '../call/tool-results';

/** The result of a call left waiting for a person's decision (not run yet). */
export function pendingResult(target: ResultTarget, approvalId: string): ToolResult {
  return errorResult(
    target,
    'approval_required',
    `Waiting for a person's approval (${approvalId}); not run yet.`,
    { skipped: true, approval: 'ask' },
  );
}

/** The result of a call that needs a call waiting for approval. */
export function waitingResult(target: ResultTarget, waitsOn: string): ToolResult {
  return errorResult(
    target,
    'approval_required',
    `Not run yet: it needs call ${waitsOn}, which waits for a person's approval.`,
    { skipped: true },
  );
}
