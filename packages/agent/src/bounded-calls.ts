import { callOutOfBounds, DEFAULT_VALUE_LIMITS, type ValueLimits } from '@mtpx/executor';
import type { AssistantMessage, AssistantToolCall } from '@mtpx/protocol';

/**
 * A model's call as the agent may keep and pass on: the call itself when it is within the
 * executor's bounds (depth, size, JSON values only), otherwise a stand-in with the same id
 * and name, no arguments, and an `arguments_error` saying why — which the executor answers
 * `invalid_arguments` without running anything. Checked by an iterative walk, so a deep or
 * cyclic value never reaches the alias rewrite, events, tool messages or a session store.
 *
 * @example
 * ```ts
 * boundedToolCall({ id: 'call_1', name: 'echo', arguments: tooDeep, depends_on: [] });
 * // { id: 'call_1', name: 'echo', arguments: {}, depends_on: [], arguments_error: 'The arguments cannot be used: …' }
 * ```
 */
export function boundedToolCall(
  call: AssistantToolCall,
  limits: Readonly<Required<ValueLimits>> = DEFAULT_VALUE_LIMITS,
): AssistantToolCall {
  const problem = callOutOfBounds(call, limits);
  if (problem === undefined) return call;
  const value = (
    typeof call === 'object' && call !== null ? call : {}
  ) as Partial<AssistantToolCall>;
  return {
    id: typeof value.id === 'string' ? value.id : '',
    name: typeof value.name === 'string' ? value.name : '',
    arguments: {},
    depends_on: [],
    arguments_error: problem,
  };
}

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
