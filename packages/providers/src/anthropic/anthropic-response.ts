import type Anthropic from '@anthropic-ai/sdk';
import type { AssistantToolCall, FinishReason, ProviderTurn, Usage } from '@mtpx/protocol';
import { reasoningText } from '@mtpx/protocol/internal';
import { ProviderError } from '../provider-error';
import { assistantContent, providerTurn } from '../provider-turn';
import { assistantToolCallFromValue } from '../tool-arguments';
import type { ToolNameMapping } from '../tool-names';
import { turnParts } from './anthropic-parts';

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
      return 'refusal';
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
  cache_creation?: {
    ephemeral_5m_input_tokens?: number | null;
    ephemeral_1h_input_tokens?: number | null;
  } | null;
  output_tokens_details?: { thinking_tokens?: number | null } | null;
}

/**
 * The Messages API's usage in MTPX's terms. Anthropic counts cache reads and writes
 * apart from `input_tokens`; `inputTokens` here is all three, so it means the same as
 * OpenAI's `prompt_tokens`, and each is also kept on its own: `cacheReadTokens`,
 * `cacheWriteTokens` (with its 5-minute / 1-hour split when reported) and
 * `reasoningTokens` (`output_tokens_details.thinking_tokens`).
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
  if (usage.cache_read_input_tokens != null) {
    result.cachedInputTokens = cacheRead;
    result.cacheReadTokens = cacheRead;
  }
  if (usage.cache_creation_input_tokens != null) {
    result.cacheWriteTokens = usage.cache_creation_input_tokens;
  }
  const split = usage.cache_creation;
  if (split?.ephemeral_5m_input_tokens != null) {
    result.cacheWrite5mTokens = split.ephemeral_5m_input_tokens;
  }
  if (split?.ephemeral_1h_input_tokens != null) {
    result.cacheWrite1hTokens = split.ephemeral_1h_input_tokens;
  }
  const thinking = usage.output_tokens_details?.thinking_tokens;
  if (thinking != null) result.reasoningTokens = thinking;
  return result;
}

/** A refusal's explanation: `stop_details.explanation`, else the turn's text. */
export function anthropicRefusal(stopDetails: unknown, text: string): string | undefined {
  const explanation =
    stopDetails != null && typeof stopDetails === 'object'
      ? (stopDetails as { explanation?: unknown }).explanation
      : undefined;
  if (typeof explanation === 'string' && explanation !== '') return explanation;
  return text === '' ? undefined : text;
}

/** What turning a whole response into a turn needs. */
export interface AnthropicTurnContext {
  provider: string;
  names: ToolNameMapping;
}

/**
 * A whole Messages API response as a provider turn: text blocks joined, `tool_use`
 * blocks as tool calls (names mapped back; an `input` that is not an object kept with
 * `arguments_error`), every other block (thinking, redacted thinking, server tool
 * blocks) kept as a provider part at its index for the next request to replay.
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
  const blocks = response.content.map((block, index) => ({
    index,
    block: block as unknown as Record<string, unknown>,
  }));
  for (const block of response.content) {
    if (block.type === 'text') text += block.text;
    if (block.type === 'tool_use') {
      toolCalls.push(
        assistantToolCallFromValue(block.id, context.names.fromProvider(block.name), block.input),
      );
    }
  }
  const providerParts = turnParts(blocks);
  const finishReason = anthropicFinishReason(response.stop_reason);
  return providerTurn({
    content: assistantContent(text, toolCalls),
    toolCalls,
    finishReason,
    usage: anthropicUsage(response.usage),
    model: typeof response.model === 'string' ? response.model : undefined,
    responseId: typeof response.id === 'string' ? response.id : undefined,
    providerParts,
    reasoning: reasoningText(providerParts),
    rawFinishReason: response.stop_reason,
    refusal:
      finishReason === 'refusal'
        ? anthropicRefusal((response as { stop_details?: unknown }).stop_details, text)
        : undefined,
  });
}
