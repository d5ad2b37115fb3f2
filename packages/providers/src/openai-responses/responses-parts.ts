import type { AssistantMessage, JsonValue, ProviderPart } from '@mtpx/protocol';

/**
 * The `provider` tag of the parts the Responses adapter keeps. Not `openai`: the Chat
 * Completions adapter must never send a Responses item back (and the reverse).
 */
export const RESPONSES_PART_PROVIDER = 'openai-responses';

/** An output item of the Responses API, as the API sent it. */
export type ResponsesItem = Record<string, unknown> & { type: string };

/**
 * The output items the API runs itself: they are never dispatched to a local tool, and a
 * `server-tool-used` event says they happened. Hosted tools (web search, file search, code
 * interpreter, image generation, hosted MCP and its tool listing, server-side tool search),
 * programmatic tool calling's own program items, and compaction.
 */
const SERVER_ITEM_TYPES = new Set([
  'web_search_call',
  'file_search_call',
  'code_interpreter_call',
  'image_generation_call',
  'mcp_call',
  'mcp_list_tools',
  'mcp_approval_request',
  'tool_search_call',
  'tool_search_output',
  'program',
  'program_output',
  'compaction',
]);

/** True for an item the API ran itself (see {@link SERVER_ITEM_TYPES}). */
export function isServerItem(item: ResponsesItem): boolean {
  if (item.type === 'tool_search_call' || item.type === 'tool_search_output') {
    return item.execution !== 'client';
  }
  return SERVER_ITEM_TYPES.has(item.type);
}

/** What a `server-tool-used` event and a part's `server_tool` say about a server item. */
export function serverToolOf(item: ResponsesItem): { id?: string; name?: string } {
  const name =
    typeof item.name === 'string'
      ? item.name
      : typeof item.server_label === 'string'
        ? item.server_label
        : undefined;
  return {
    ...(typeof item.id === 'string' ? { id: item.id } : {}),
    ...(name === undefined ? {} : { name }),
  };
}

const textsOf = (list: unknown, type: string): string[] =>
  Array.isArray(list)
    ? list.flatMap((entry) => {
        const { type: kind, text } = (entry ?? {}) as { type?: unknown; text?: unknown };
        return kind === type && typeof text === 'string' && text !== '' ? [text] : [];
      })
    : [];

/**
 * The readable text of a reasoning item: its summaries (`summary_text`), else its
 * `reasoning_text` content (open-weight models), joined by blank lines; never encrypted content.
 */
export function reasoningItemText(item: ResponsesItem): string {
  const summaries = textsOf(item.summary, 'summary_text');
  return (summaries.length > 0 ? summaries : textsOf(item.content, 'reasoning_text')).join('\n\n');
}

/** The `output_text` of a message item, joined. */
export function messageItemText(item: ResponsesItem): string {
  return textsOf(item.content, 'output_text').join('');
}

/** The `refusal` text of a message item, joined. */
export function messageItemRefusal(item: ResponsesItem): string {
  if (!Array.isArray(item.content)) return '';
  return item.content
    .map((entry) => {
      const { type, refusal } = (entry ?? {}) as { type?: unknown; refusal?: unknown };
      return type === 'refusal' && typeof refusal === 'string' ? refusal : '';
    })
    .join('');
}

/** An output item as a provider part of `service`, at its `output_index`. */
export function partFromItem(service: string, item: ResponsesItem, index: number): ProviderPart {
  const part: ProviderPart = {
    provider: RESPONSES_PART_PROVIDER,
    service,
    type: item.type,
    data: item as unknown as JsonValue,
    index,
  };
  if (item.type === 'reasoning') {
    const text = reasoningItemText(item);
    if (text !== '') part.text = text;
  }
  if (item.type === 'function_call' && typeof item.call_id === 'string') {
    part.call_id = item.call_id;
  }
  if (isServerItem(item)) part.server_tool = serverToolOf(item);
  return part;
}

/** The part that remembers which response a turn was (for `previous_response_id`). */
export function responsePart(service: string, responseId: string): ProviderPart {
  return {
    provider: RESPONSES_PART_PROVIDER,
    service,
    type: 'response',
    data: { id: responseId },
  };
}

/** The parts of `message` this adapter made for `service`. */
export function ownParts(message: AssistantMessage, service: string): ProviderPart[] {
  return (message.provider_parts ?? []).filter(
    (part) => part.provider === RESPONSES_PART_PROVIDER && part.service === service,
  );
}

/** The response id a turn of `service` was, when it kept one. */
export function responseIdOf(message: AssistantMessage, service: string): string | undefined {
  const part = ownParts(message, service).find((candidate) => candidate.type === 'response');
  const id = (part?.data as { id?: unknown } | undefined)?.id;
  return typeof id === 'string' ? id : undefined;
}
