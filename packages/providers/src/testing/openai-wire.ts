import type { FinishReason, Usage } from '@mtpx/protocol';
import type { SseEvent } from './model-server';
import {
  type ScriptedTurn,
  scriptedArgumentsText,
  scriptedCallId,
  splitIntoChunks,
} from './scripted-turn';

/** How a scripted turn is written in the Chat Completions wire format. */
export interface OpenAIWireOptions {
  /** Default `scripted-model`. */
  model?: string;
  /** The response id. Default `chatcmpl-scripted`. */
  id?: string;
  /** Which turn of a conversation this is (for default call ids). Default 0. */
  turnIndex?: number;
  /** Maps a scripted tool name to the name the model sends. Default: unchanged. */
  toolName?: (name: string) => string;
}

/** Options for the streamed form. */
export interface OpenAIStreamWireOptions extends OpenAIWireOptions {
  /** Characters per text or arguments fragment. Default 16. */
  chunkSize?: number;
  /** Send a final usage chunk (`stream_options.include_usage`). Default true. */
  includeUsage?: boolean;
}

const created = 1_767_225_600;

function finishReasonText(turn: ScriptedTurn): string {
  const reason: FinishReason =
    turn.finishReason ?? (turn.toolCalls?.length ? 'tool_calls' : 'stop');
  return reason === 'error' || reason === 'other' || reason === 'refusal' ? 'stop' : reason;
}

function usageBody(usage: Usage | undefined) {
  const value = usage ?? { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
  return {
    prompt_tokens: value.inputTokens,
    completion_tokens: value.outputTokens,
    total_tokens: value.totalTokens,
  };
}

/**
 * A scripted turn as a whole Chat Completions response body.
 *
 * @example
 * ```ts source="./testing.examples.ts#openAIChatCompletion"
 * openAIChatCompletion({
 *   toolCalls: [{ id: 'call_1', name: 'calculator_add', arguments: { a: 1, b: 2 } }],
 * });
 * ```
 */
export function openAIChatCompletion(turn: ScriptedTurn, options: OpenAIWireOptions = {}) {
  const toolName = options.toolName ?? ((name: string) => name);
  const toolCalls = (turn.toolCalls ?? []).map((call, index) => ({
    id: scriptedCallId(options.turnIndex ?? 0, index, call),
    type: 'function',
    function: { name: toolName(call.name), arguments: scriptedArgumentsText(call) },
  }));
  return {
    id: options.id ?? 'chatcmpl-scripted',
    object: 'chat.completion',
    created,
    model: options.model ?? 'scripted-model',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: turn.text ?? null,
          refusal: turn.refusal ?? null,
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
        },
        logprobs: null,
        finish_reason: finishReasonText(turn),
      },
    ],
    usage: usageBody(turn.usage),
  };
}

/**
 * A scripted turn as Chat Completions stream events, the way OpenAI streams: a role
 * chunk, text fragments, for each call a first fragment with `id`, `name` and empty
 * arguments then argument fragments, a `finish_reason` chunk, a usage chunk, `[DONE]`.
 */
export function openAIChatCompletionChunks(
  turn: ScriptedTurn,
  options: OpenAIStreamWireOptions = {},
): SseEvent[] {
  const toolName = options.toolName ?? ((name: string) => name);
  const chunkSize = options.chunkSize ?? 16;
  const chunk = (delta: object, finishReason: string | null = null) =>
    JSON.stringify({
      id: options.id ?? 'chatcmpl-scripted',
      object: 'chat.completion.chunk',
      created,
      model: options.model ?? 'scripted-model',
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    });
  const events: SseEvent[] = [chunk({ role: 'assistant', content: '', refusal: null })];
  if (turn.refusal !== undefined) events.push(chunk({ refusal: turn.refusal }));
  if (turn.text) {
    for (const piece of splitIntoChunks(turn.text, chunkSize))
      events.push(chunk({ content: piece }));
  }
  for (const [index, call] of (turn.toolCalls ?? []).entries()) {
    const id = scriptedCallId(options.turnIndex ?? 0, index, call);
    events.push(
      chunk({
        tool_calls: [
          { index, id, type: 'function', function: { name: toolName(call.name), arguments: '' } },
        ],
      }),
    );
    for (const piece of splitIntoChunks(scriptedArgumentsText(call), chunkSize)) {
      events.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  }
  events.push(chunk({}, finishReasonText(turn)));
  if (options.includeUsage ?? true) {
    events.push(
      JSON.stringify({
        id: options.id ?? 'chatcmpl-scripted',
        object: 'chat.completion.chunk',
        created,
        model: options.model ?? 'scripted-model',
        choices: [],
        usage: usageBody(turn.usage),
      }),
    );
  }
  events.push('[DONE]');
  return events;
}
