import type Anthropic from '@anthropic-ai/sdk';
import type { AssistantToolCall, FinishReason, ProviderTurn, Usage } from '@mtpx/protocol';
import { ProviderError } from '../provider-error';
import { assistantContent, providerTurn } from '../provider-turn';
import { assistantToolCallFromValue } from '../tool-arguments';
import type { ToolNameMapping } from '../tool-names';

/** The Messages API's `stop_reason` in MTPX's terms. */
export function anthropicFinishReason(reason: string | null | undefined): FinishReason {
  switch (reason) {
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'tool_use':
      return 'tool_calls';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'refusal':
      return 'content_filter';
    default:
      return 'other';
  }
}

/** The usage counters the Messages API reports (`message_start` and `message_delta` carry parts). */
export interface AnthropicUsageCounters {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

/**
 * The Messages API's usage in MTPX's terms. Anthropic counts cache reads and writes
 * apart from `input_tokens`; `inputTokens` here is all three, so it means the same as
 * OpenAI's `prompt_tokens`.
 */
export function anthropicUsage(
  usage: AnthropicUsageCounters | null | undefined,
): Usage | undefined {
  if (usage == null) return undefined;
  const cacheRead = usage.cache_read_input_tokens ?? 0;
  const inputTokens =
    (usage.input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0) + cacheRead;
  const outputTokens = usage.output_tokens ?? 0;
  const result: Usage = { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens };
  if (usage.cache_read_input_tokens != null) result.cachedInputTokens = cacheRead;
  return result;
}

/** What turning a whole response into a turn needs. */
export interface AnthropicTurnContext {
  provider: string;
  names: ToolNameMapping;
}

/**
 * A whole Messages API response as a provider turn: text blocks joined, `tool_use`
 * blocks as tool calls (names mapped back; an `input` that is not an object kept with
 * `arguments_error`), other blocks (thinking, server tools) left out.
 */
export function turnFromAnthropicMessage(
  response: Anthropic.Message,
  context: AnthropicTurnContext,
): ProviderTurn {
  if (!Array.isArray(response.content)) {
    throw new ProviderError({
      code: 'invalid_response',
      provider: context.provider,
      message: `${context.provider}: the response has no content blocks.`,
    });
  }
  let text = '';
  const toolCalls: AssistantToolCall[] = [];
  for (const block of response.content) {
    if (block.type === 'text') text += block.text;
    if (block.type === 'tool_use') {
      toolCalls.push(
        assistantToolCallFromValue(block.id, context.names.fromProvider(block.name), block.input),
      );
    }
  }
  return providerTurn({
    content: assistantContent(text, toolCalls),
    toolCalls,
    finishReason: anthropicFinishReason(response.stop_reason),
    usage: anthropicUsage(response.usage),
    model: typeof response.model === 'string' ? response.model : undefined,
    responseId: typeof response.id === 'string' ? response.id : undefined,
  });
}
