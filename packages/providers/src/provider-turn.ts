import type {
  AssistantMessage,
  AssistantToolCall,
  FinishReason,
  ProviderEvent,
  ProviderPart,
  ProviderTurn,
  Usage,
} from '@mtpx/protocol';

/** What an adapter read from a whole response, or assembled from a stream. */
export interface TurnParts {
  content: string | null;
  toolCalls: AssistantToolCall[];
  finishReason: FinishReason;
  usage: Usage | undefined;
  model: string | undefined;
  responseId: string | undefined;
  /** The provider's own parts of the turn (thinking blocks, reasoning fields, server tool blocks). */
  providerParts?: ProviderPart[] | undefined;
  /** The turn's readable reasoning. */
  reasoning?: string | undefined;
  /** A refusal's text. */
  refusal?: string | undefined;
  /** The API's own finish reason, unchanged (kept on the turn when it maps to `other`). */
  rawFinishReason?: string | null | undefined;
}

/** The provider-neutral turn: the assistant message (with its calls, if any) and what is known about it. */
export function providerTurn(parts: TurnParts): ProviderTurn {
  const message: AssistantMessage = { role: 'assistant', content: parts.content };
  if (parts.toolCalls.length > 0) message.tool_calls = parts.toolCalls;
  if (parts.providerParts !== undefined && parts.providerParts.length > 0) {
    message.provider_parts = parts.providerParts;
  }
  const turn: ProviderTurn = { message, finishReason: parts.finishReason };
  if (parts.usage !== undefined) turn.usage = parts.usage;
  if (parts.model !== undefined) turn.model = parts.model;
  if (parts.responseId !== undefined) turn.responseId = parts.responseId;
  if (parts.finishReason === 'other' && parts.rawFinishReason != null) {
    turn.rawFinishReason = parts.rawFinishReason;
  }
  if (parts.reasoning !== undefined && parts.reasoning !== '') turn.reasoning = parts.reasoning;
  if (parts.refusal !== undefined && parts.refusal !== '') turn.refusal = parts.refusal;
  return turn;
}

/** Text as a message's content: `null` for a turn of tool calls and no text. */
export function assistantContent(
  text: string,
  toolCalls: readonly AssistantToolCall[],
): string | null {
  return text === '' && toolCalls.length > 0 ? null : text;
}

/** The events that close a stream: `usage` (when reported), then `finish`. */
export function closingEvents(turn: ProviderTurn): ProviderEvent[] {
  const events: ProviderEvent[] = [];
  if (turn.usage !== undefined) events.push({ type: 'usage', usage: turn.usage });
  events.push({ type: 'finish', turn });
  return events;
}
