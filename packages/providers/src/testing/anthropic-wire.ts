import { safeParseJson } from '@mtpx/protocol';
import type { SseEvent } from './model-server';
import {
  type ScriptedTurn,
  scriptedArgumentsText,
  scriptedCallId,
  splitIntoChunks,
} from './scripted-turn';

/** How a scripted turn is written in the Messages API wire format. */
export interface AnthropicWireOptions {
  /** Default `scripted-model`. */
  model?: string;
  /** The message id. Default `msg_scripted`. */
  id?: string;
  /** Which turn of a conversation this is (for default call ids). Default 0. */
  turnIndex?: number;
  /** Maps a scripted tool name to the name the model sends. Default: unchanged. */
  toolName?: (name: string) => string;
  /** Characters per streamed text or `partial_json` fragment. Default 16. */
  chunkSize?: number;
}

function stopReason(turn: ScriptedTurn): string {
  switch (turn.finishReason ?? (turn.toolCalls?.length ? 'tool_calls' : 'stop')) {
    case 'tool_calls':
      return 'tool_use';
    case 'length':
      return 'max_tokens';
    case 'content_filter':
    case 'refusal':
      return 'refusal';
    default:
      return 'end_turn';
  }
}

function toolInput(text: string): unknown {
  const parsed = safeParseJson(text);
  return parsed.ok ? parsed.value : {};
}

function usageBody(turn: ScriptedTurn) {
  return {
    input_tokens: turn.usage?.inputTokens ?? 0,
    output_tokens: turn.usage?.outputTokens ?? 0,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
  };
}

/** A scripted turn as a whole Messages API response body. */
export function anthropicMessage(turn: ScriptedTurn, options: AnthropicWireOptions = {}) {
  const toolName = options.toolName ?? ((name: string) => name);
  const content: object[] = [];
  if (turn.text) content.push({ type: 'text', text: turn.text });
  for (const [index, call] of (turn.toolCalls ?? []).entries()) {
    content.push({
      type: 'tool_use',
      id: scriptedCallId(options.turnIndex ?? 0, index, call),
      name: toolName(call.name),
      input: toolInput(scriptedArgumentsText(call)),
    });
  }
  return {
    id: options.id ?? 'msg_scripted',
    type: 'message',
    role: 'assistant',
    model: options.model ?? 'scripted-model',
    content,
    stop_reason: stopReason(turn),
    stop_sequence: null,
    usage: usageBody(turn),
  };
}

/**
 * A scripted turn as Messages API stream events, each with its `event:` name, the
 * way Anthropic streams: `message_start`, per block `content_block_start`, deltas
 * (`text_delta`, `input_json_delta`) and `content_block_stop`, then `message_delta`
 * and `message_stop`.
 */
export function anthropicMessageEvents(
  turn: ScriptedTurn,
  options: AnthropicWireOptions = {},
): SseEvent[] {
  const toolName = options.toolName ?? ((name: string) => name);
  const chunkSize = options.chunkSize ?? 16;
  const events: SseEvent[] = [];
  const emit = (data: { type: string; [key: string]: unknown }) =>
    events.push({ event: data.type, data: JSON.stringify(data) });
  const usage = usageBody(turn);
  emit({
    type: 'message_start',
    message: {
      id: options.id ?? 'msg_scripted',
      type: 'message',
      role: 'assistant',
      model: options.model ?? 'scripted-model',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...usage, output_tokens: 1 },
    },
  });
  let blockIndex = 0;
  const block = (contentBlock: object, deltas: object[]) => {
    emit({ type: 'content_block_start', index: blockIndex, content_block: contentBlock });
    for (const delta of deltas) emit({ type: 'content_block_delta', index: blockIndex, delta });
    emit({ type: 'content_block_stop', index: blockIndex });
    blockIndex += 1;
  };
  if (turn.text) {
    block(
      { type: 'text', text: '' },
      splitIntoChunks(turn.text, chunkSize).map((text) => ({ type: 'text_delta', text })),
    );
  }
  for (const [index, call] of (turn.toolCalls ?? []).entries()) {
    block(
      {
        type: 'tool_use',
        id: scriptedCallId(options.turnIndex ?? 0, index, call),
        name: toolName(call.name),
        input: {},
      },
      splitIntoChunks(scriptedArgumentsText(call), chunkSize).map((partial_json) => ({
        type: 'input_json_delta',
        partial_json,
      })),
    );
  }
  emit({
    type: 'message_delta',
    delta: { stop_reason: stopReason(turn), stop_sequence: null },
    usage: { output_tokens: usage.output_tokens },
  });
  emit({ type: 'message_stop' });
  return events;
}
