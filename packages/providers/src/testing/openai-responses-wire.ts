import type { Usage } from '@mtpx/protocol';
import type { SseEvent } from './model-server';
import type { OpenAIStreamWireOptions } from './openai-wire';
import {
  type ScriptedTurn,
  scriptedArgumentsText,
  scriptedCallId,
  splitIntoChunks,
} from './scripted-turn';

type Json = Record<string, unknown>;

/** How a scripted turn is written in the Responses wire format. */
export interface OpenAIResponseWireOptions extends OpenAIStreamWireOptions {
  /**
   * Give reasoning items an `encrypted_content` (the API sends it only when the request
   * asks for `include: ["reasoning.encrypted_content"]`). Default false.
   */
  encryptedReasoning?: boolean;
}

const createdAt = 1_767_225_600;

function usageBody(usage: Usage | undefined) {
  const value = usage ?? { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
  return {
    input_tokens: value.inputTokens,
    input_tokens_details: { cached_tokens: value.cachedInputTokens ?? 0 },
    output_tokens: value.outputTokens,
    output_tokens_details: { reasoning_tokens: value.reasoningTokens ?? 0 },
    total_tokens: value.totalTokens,
  };
}

/** The output items of a scripted turn: reasoning (with its summary), the message, the calls. */
function outputItems(turn: ScriptedTurn, options: OpenAIResponseWireOptions): Json[] {
  const turnIndex = options.turnIndex ?? 0;
  const toolName = options.toolName ?? ((name: string) => name);
  const items: Json[] = [];
  if (turn.reasoning !== undefined) {
    const id = `rs_scripted_${turnIndex + 1}`;
    items.push({
      type: 'reasoning',
      id,
      summary: [{ type: 'summary_text', text: turn.reasoning }],
      ...(options.encryptedReasoning === true
        ? {
            encrypted_content: `gAAAAB${Buffer.from(`${id}:${turn.reasoning}`).toString('base64')}`,
          }
        : {}),
    });
  }
  const content: Json[] = [];
  if (turn.text) content.push({ type: 'output_text', text: turn.text, annotations: [] });
  if (turn.refusal !== undefined) content.push({ type: 'refusal', refusal: turn.refusal });
  if (content.length > 0) {
    items.push({
      type: 'message',
      id: `msg_scripted_${turnIndex + 1}`,
      role: 'assistant',
      status: 'completed',
      content,
    });
  }
  for (const [index, call] of (turn.toolCalls ?? []).entries()) {
    items.push({
      type: 'function_call',
      id: `fc_scripted_${turnIndex + 1}_${index + 1}`,
      call_id: scriptedCallId(turnIndex, index, call),
      name: toolName(call.name),
      arguments: scriptedArgumentsText(call),
      status: 'completed',
    });
  }
  return items;
}

/**
 * A scripted turn as a whole Responses API response: a `reasoning` item (its summary) when
 * the turn has reasoning, a `message` item with the text (or refusal), a `function_call`
 * item per call; `incomplete` for a `length` or `content_filter` turn.
 */
export function openAIResponse(turn: ScriptedTurn, options: OpenAIResponseWireOptions = {}): Json {
  const incomplete =
    turn.finishReason === 'length'
      ? 'max_output_tokens'
      : turn.finishReason === 'content_filter'
        ? 'content_filter'
        : undefined;
  return {
    id: options.id ?? `resp_scripted_${(options.turnIndex ?? 0) + 1}`,
    object: 'response',
    created_at: createdAt,
    status: incomplete === undefined ? 'completed' : 'incomplete',
    incomplete_details: incomplete === undefined ? null : { reason: incomplete },
    error: null,
    model: options.model ?? 'scripted-model',
    output: outputItems(turn, options),
    usage: usageBody(turn.usage),
  };
}

/**
 * A scripted turn as Responses API stream events, the way the API streams: `response.created`,
 * each output item added, its deltas (summary text, output text, call arguments) and done,
 * then `response.completed` (or `response.incomplete`). Each event carries its `event:` name.
 */
export function openAIResponseEvents(
  turn: ScriptedTurn,
  options: OpenAIResponseWireOptions = {},
): SseEvent[] {
  const whole = openAIResponse(turn, options);
  const chunkSize = options.chunkSize ?? 16;
  const events: Json[] = [
    {
      type: 'response.created',
      response: { ...whole, status: 'in_progress', output: [], usage: null },
    },
  ];
  (whole.output as Json[]).forEach((item, index) => {
    const base = { output_index: index, item_id: item.id };
    if (item.type === 'reasoning') {
      events.push({
        type: 'response.output_item.added',
        output_index: index,
        item: { ...item, summary: [] },
      });
      for (const piece of splitIntoChunks(turn.reasoning ?? '', chunkSize)) {
        events.push({
          type: 'response.reasoning_summary_text.delta',
          ...base,
          summary_index: 0,
          delta: piece,
        });
      }
    } else if (item.type === 'message') {
      events.push({
        type: 'response.output_item.added',
        output_index: index,
        item: { ...item, content: [] },
      });
      if (turn.text) {
        for (const piece of splitIntoChunks(turn.text, chunkSize)) {
          events.push({
            type: 'response.output_text.delta',
            ...base,
            content_index: 0,
            delta: piece,
          });
        }
      }
      if (turn.refusal !== undefined) {
        events.push({
          type: 'response.refusal.delta',
          ...base,
          content_index: 0,
          delta: turn.refusal,
        });
      }
    } else {
      events.push({
        type: 'response.output_item.added',
        output_index: index,
        item: { ...item, arguments: '' },
      });
      for (const piece of splitIntoChunks(String(item.arguments), chunkSize)) {
        events.push({ type: 'response.function_call_arguments.delta', ...base, delta: piece });
      }
      events.push({
        type: 'response.function_call_arguments.done',
        ...base,
        arguments: item.arguments,
      });
    }
    events.push({ type: 'response.output_item.done', output_index: index, item });
  });
  events.push({
    type: whole.status === 'incomplete' ? 'response.incomplete' : 'response.completed',
    response: whole,
  });
  return events.map((event, sequence) => ({
    event: String(event.type),
    data: JSON.stringify({ ...event, sequence_number: sequence }),
  }));
}
