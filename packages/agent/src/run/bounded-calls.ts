import type { AssistantMessage, AssistantToolCall } from '@mtpx/protocol';

/**
 * A model's call as the agent may keep and pass on — the executor's rule (one home for
 * bounds): the call itself when it is within the executor's bounds, else a stand-in with
 * the same id and name, no arguments, and an `arguments_error`.
 *
 * @internal
 */
export { boundedToolCall } from '@mtpx/executor/internal';

/** `message` with each tool call bounded (the same object when none needed it). */
export function boundedMessage(
  message: AssistantMessage,
  bound: (call: AssistantToolCall) => AssistantToolCall,
): AssistantMessage {
  const calls = message.tool_calls;
  if (!Array.isArray(calls)) return message;
  let changed = false;
  const bounded = calls.map((call) => {
    const kept = bound(call);
    if (kept !== call) changed = true;
    return kept;
  });
  return changed ? { ...message, tool_calls: bounded } : message;
}
