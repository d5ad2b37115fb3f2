import type { AssistantMessage, JsonValue, ProviderPart } from '@mtpx/protocol';
import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionMessageToolCall,
} from 'openai/resources/chat/completions';

/** The `provider` tag of the parts the OpenAI-compatible adapter keeps. */
export const OPENAI_PART_PROVIDER = 'openai';

/**
 * The reasoning fields compatible services put on an assistant message, and want back:
 * DeepSeek's `reasoning_content`, the `reasoning` of Groq, Ollama and vLLM, OpenRouter's
 * `reasoning_details`, Gemini's message-level `extra_content`.
 */
export const REASONING_FIELDS = [
  'reasoning_content',
  'reasoning',
  'reasoning_details',
  'extra_content',
] as const;

/** One of {@link REASONING_FIELDS}. */
export type ReasoningField = (typeof REASONING_FIELDS)[number];

/** The readable text of OpenRouter `reasoning_details` (`reasoning.text` and `reasoning.summary`; never `reasoning.encrypted`). */
export function reasoningDetailsText(details: unknown): string | undefined {
  if (!Array.isArray(details)) return undefined;
  const texts = details.flatMap((detail) => {
    if (detail == null || typeof detail !== 'object') return [];
    const { type, text, summary } = detail as { type?: unknown; text?: unknown; summary?: unknown };
    if (type === 'reasoning.text' && typeof text === 'string') return [text];
    if (type === 'reasoning.summary' && typeof summary === 'string') return [summary];
    return [];
  });
  const joined = texts.join('');
  return joined === '' ? undefined : joined;
}

/** A message-level reasoning field as a provider part of `service`. */
export function fieldPart(service: string, field: ReasoningField, value: unknown): ProviderPart {
  const part: ProviderPart = {
    provider: OPENAI_PART_PROVIDER,
    service,
    type: field,
    data: value as JsonValue,
  };
  const text =
    field === 'reasoning_details'
      ? reasoningDetailsText(value)
      : field === 'extra_content' || typeof value !== 'string'
        ? undefined
        : value;
  if (text !== undefined && text !== '') part.text = text;
  return part;
}

/** A tool call's `extra_content` (Gemini's `google.thought_signature`) as a provider part. */
export function callExtraPart(service: string, callId: string, value: unknown): ProviderPart {
  return {
    provider: OPENAI_PART_PROVIDER,
    service,
    type: 'extra_content',
    call_id: callId,
    data: value as JsonValue,
  };
}

/** The reasoning fields of a whole response's message, as parts (a field sent as `null` is absent). */
export function messageFieldParts(service: string, message: object): ProviderPart[] {
  const fields = message as Record<string, unknown>;
  return REASONING_FIELDS.flatMap((field) =>
    fields[field] == null ? [] : [fieldPart(service, field, fields[field])],
  );
}

/**
 * Puts a turn's own parts back on its assistant message: each reasoning field where the
 * service sent it, each tool call's `extra_content` on that call. Only parts of
 * `service` are sent: a field one service requires is one another service rejects.
 */
export function replayOpenAIParts(
  assistant: ChatCompletionAssistantMessageParam,
  message: AssistantMessage,
  service: string,
): void {
  const target = assistant as unknown as Record<string, unknown>;
  for (const part of message.provider_parts ?? []) {
    if (part.provider !== OPENAI_PART_PROVIDER || part.service !== service) continue;
    if (part.call_id === undefined) {
      if ((REASONING_FIELDS as readonly string[]).includes(part.type))
        target[part.type] = part.data;
      continue;
    }
    const call = assistant.tool_calls?.find((candidate) => candidate.id === part.call_id) as
      | (ChatCompletionMessageToolCall & Record<string, unknown>)
      | undefined;
    if (call !== undefined) call[part.type] = part.data;
  }
}
