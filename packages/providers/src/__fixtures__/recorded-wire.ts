import { isJsonObject, safeParseJson } from '@mtpx/protocol';
import type { SseEvent } from '../testing/model-server';

type Json = Record<string, unknown>;

const event = (data: Json): SseEvent => ({ event: String(data.type), data: JSON.stringify(data) });

/**
 * A recorded whole Messages API response, sent as the stream the API sends for it:
 * `message_start`, each block's start, deltas (`text_delta`, `thinking_delta` then
 * `signature_delta`, `input_json_delta`) and stop, `message_delta`, `message_stop`. For
 * recordings that exist only whole (SOURCES.md says which).
 */
export function anthropicEventsFromMessage(message: Json): SseEvent[] {
  const { content, usage, stop_reason, stop_sequence, ...rest } = message as {
    content: Json[];
    usage: Json;
    stop_reason: unknown;
    stop_sequence: unknown;
  };
  const events: SseEvent[] = [
    event({
      type: 'message_start',
      message: { ...rest, content: [], stop_reason: null, stop_sequence: null, usage },
    }),
  ];
  content.forEach((block, index) => {
    const delta = (data: Json) => events.push(event({ type: 'content_block_delta', index, delta: data }));
    if (block.type === 'thinking') {
      events.push(event({ type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } }));
      delta({ type: 'thinking_delta', thinking: block.thinking });
      delta({ type: 'signature_delta', signature: block.signature });
    } else if (block.type === 'text') {
      events.push(event({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } }));
      delta({ type: 'text_delta', text: block.text });
    } else if (block.type === 'tool_use' || block.type === 'server_tool_use') {
      events.push(event({ type: 'content_block_start', index, content_block: { ...block, input: {} } }));
      delta({ type: 'input_json_delta', partial_json: JSON.stringify(block.input) });
    } else {
      events.push(event({ type: 'content_block_start', index, content_block: block }));
    }
    events.push(event({ type: 'content_block_stop', index }));
  });
  events.push(
    event({
      type: 'message_delta',
      delta: { stop_reason, stop_sequence },
      usage: { output_tokens: usage.output_tokens },
    }),
  );
  events.push(event({ type: 'message_stop' }));
  return events;
}

/** The content blocks a Messages API stream carried, assembled as the whole response holds them. */
export function anthropicContentOfEvents(events: readonly SseEvent[]): Json[] {
  const blocks: Json[] = [];
  const inputs = new Map<number, string>();
  for (const sse of events) {
    const parsed = safeParseJson(typeof sse === 'string' ? sse : sse.data);
    if (!parsed.ok || !isJsonObject(parsed.value)) continue;
    const data = parsed.value as Json;
    const index = data.index as number;
    if (data.type === 'content_block_start') blocks[index] = { ...(data.content_block as Json) };
    if (data.type !== 'content_block_delta') continue;
    const block = blocks[index] as Json;
    const delta = data.delta as Json;
    if (delta.type === 'text_delta') block.text = `${block.text ?? ''}${delta.text}`;
    if (delta.type === 'thinking_delta') block.thinking = `${block.thinking ?? ''}${delta.thinking}`;
    if (delta.type === 'signature_delta') block.signature = `${block.signature ?? ''}${delta.signature}`;
    if (delta.type === 'input_json_delta') {
      inputs.set(index, `${inputs.get(index) ?? ''}${delta.partial_json}`);
      const input = safeParseJson(inputs.get(index) ?? '');
      if (input.ok) block.input = input.value;
    }
  }
  return blocks;
}

/**
 * A recorded whole Chat Completions response, sent as the chunks such a service streams:
 * a role chunk, the reasoning field, the text, each tool call in one fragment (with its
 * `extra_content`), then `finish_reason`, the usage chunk and `[DONE]`. For recordings
 * that exist only whole (SOURCES.md says which).
 */
export function openAIChunksFromCompletion(completion: Json): SseEvent[] {
  const { choices, usage, ...rest } = completion as { choices: Json[]; usage: Json };
  const choice = choices[0] as Json;
  const message = choice.message as Json;
  const chunk = (delta: Json, finish: unknown = null) =>
    JSON.stringify({
      ...rest,
      object: 'chat.completion.chunk',
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
  const lines = [chunk({ role: 'assistant', content: '' })];
  for (const field of ['reasoning_content', 'reasoning', 'reasoning_details', 'extra_content']) {
    if (message[field] != null) lines.push(chunk({ [field]: message[field] }));
  }
  if (typeof message.content === 'string' && message.content !== '') {
    lines.push(chunk({ content: message.content }));
  }
  if (typeof message.refusal === 'string') lines.push(chunk({ refusal: message.refusal }));
  ((message.tool_calls as Json[] | undefined) ?? []).forEach((call, index) => {
    lines.push(chunk({ tool_calls: [{ index, ...call }] }));
  });
  lines.push(chunk({}, choice.finish_reason));
  lines.push(JSON.stringify({ ...rest, object: 'chat.completion.chunk', choices: [], usage }));
  lines.push('[DONE]');
  return lines;
}
