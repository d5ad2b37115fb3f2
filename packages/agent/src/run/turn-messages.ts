import type { AssistantMessage, AssistantToolCall, ToolResult } from '@mtpx/protocol';

/**
 * The message of a turn that broke off (cancelled, or the stream failed) after some calls
 * were ready: the conversation keeps those calls — some may have run — each answered by its
 * result, so it stays truthful and valid for the next run. Calls never completed are
 * dropped; `undefined` when no call was ready.
 */
export function brokenTurnMessage(
  text: string,
  toolCalls: AssistantToolCall[],
): AssistantMessage | undefined {
  if (toolCalls.length === 0) return undefined;
  return { role: 'assistant', content: text === '' ? null : text, tool_calls: toolCalls };
}

/**
 * A refused turn's message with only the calls that `results` answer (no `tool_calls` when
 * none), and those answers: each kept call paired with one result of its id, in order, so
 * the conversation holds exactly one answer per call even when ids repeat or are unusable.
 */
export function keepAnsweredCalls(
  message: AssistantMessage,
  results: readonly ToolResult[],
): { message: AssistantMessage; results: ToolResult[] } {
  const unused = [...results];
  const kept: NonNullable<AssistantMessage['tool_calls']> = [];
  const answers: ToolResult[] = [];
  for (const call of message.tool_calls ?? []) {
    const index = unused.findIndex((result) => result.call_id === call.id);
    if (index < 0) continue;
    kept.push(call);
    answers.push(...unused.splice(index, 1));
  }
  const { tool_calls: _calls, ...rest } = message;
  return { message: kept.length > 0 ? { ...rest, tool_calls: kept } : rest, results: answers };
}
