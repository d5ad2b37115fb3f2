import type { CallView } from '@mtpx/agent/run-view';
import type { FinishReason, JsonValue } from '@mtpx/protocol';
import type { FinishReason as UIFinishReason } from 'ai';
import { PRELIMINARY_OUTPUT_MESSAGE } from '../tools/run-ai-sdk-tool';
import type { MtpxCallData } from './mtpx-data-parts';

/** A call's `data-mtpx-call` payload, from its run view. */
export function callData(call: CallView): MtpxCallData {
  const data: MtpxCallData = {
    callId: call.id,
    toolName: call.name,
    round: call.round,
    status: call.status,
    references: call.references,
    // A held call starts once released, after the response; until `round-finished` gives
    // the run view the model's end, it would read as started during the stream.
    startedDuringStream: call.startedDuringStream && call.heldAt === undefined,
    held: call.heldAt !== undefined,
    awaitingApproval: call.approvalAskedAt !== undefined && call.approvalAnsweredAt === undefined,
    cached: call.cached,
  };
  if (call.index !== undefined) data.index = call.index;
  if (call.toolCall !== undefined) data.arguments = call.toolCall.arguments as JsonValue;
  if (call.heldReason !== undefined) data.heldReason = call.heldReason;
  if (call.approval !== undefined) data.approval = call.approval;
  if (call.durationMs !== undefined) data.durationMs = call.durationMs;
  if (call.errorCode !== undefined) data.errorCode = call.errorCode;
  const progress = call.progress
    .filter((each) => each.message !== PRELIMINARY_OUTPUT_MESSAGE)
    .at(-1);
  if (progress !== undefined) {
    const { at: _at, data: _data, ...rest } = progress;
    data.progress = rest;
  }
  return data;
}

/** The AI SDK's finish reason for an MTPX one. */
export function toUIFinishReason(reason: FinishReason): UIFinishReason {
  switch (reason) {
    case 'tool_calls':
      return 'tool-calls';
    case 'content_filter':
    case 'refusal':
      return 'content-filter';
    case 'stop':
    case 'length':
    case 'error':
    case 'other':
      return reason;
    default:
      return 'other';
  }
}

/** A cancellation's reason as text. */
export function reasonText(reason: unknown): string {
  if (reason instanceof Error) return reason.message;
  return reason === undefined ? 'cancelled' : String(reason);
}
