import type {
  AssistantToolCall,
  FinishReason,
  ProviderPart,
  ProviderTurn,
  ToolArguments,
  Usage,
} from '@mtpx/protocol';
import { reasoningText } from '@mtpx/protocol/internal';
import type { ChatCompletion } from 'openai/resources/chat/completions';
import type { CompletionUsage } from 'openai/resources/completions';
import { ProviderError } from '../provider-error';
import { providerTurn } from '../provider-turn';
import { assistantToolCall } from '../tool-arguments';
import type { ToolNameMapping } from '../tool-names';
import { callExtraPart, messageFieldParts } from './openai-parts';

/**
 * Chat Completions' `finish_reason` in MTPX's terms. A turn that carries a `refusal` is
 * a `refusal`, whatever the finish reason says.
 */
export function openAIFinishReason(
  reason: string | null | undefined,
  hasToolCalls: boolean,
  refused = false,
): FinishReason {
  if (refused) return 'refusal';
  switch (reason) {
    case 'tool_calls':
    case 'function_call':
      return 'tool_calls';
    // Some compatible servers answer tool calls with "stop": the calls are what counts.
    case 'stop':
      return hasToolCalls ? 'tool_calls' : 'stop';
    case 'length':
      return 'length';
    case 'content_filter':
      return 'content_filter';
    default:
      return hasToolCalls ? 'tool_calls' : 'other';
  }
}

/**
 * Chat Completions' `usage` in MTPX's terms: `cached_tokens` as `cachedInputTokens` and
 * `cacheReadTokens`, `reasoning_tokens` as `reasoningTokens`, DeepSeek's
 * `prompt_cache_hit_tokens` / `prompt_cache_miss_tokens` as `cacheHitTokens` / `cacheMissTokens`.
 */
export function openAIUsage(usage: CompletionUsage | null | undefined): Usage | undefined {
  if (usage == null) return undefined;
  const inputTokens = usage.prompt_tokens ?? 0;
  const outputTokens = usage.completion_tokens ?? 0;
  const result: Usage = {
    inputTokens,
    outputTokens,
    totalTokens: usage.total_tokens ?? inputTokens + outputTokens,
  };
  const cached = usage.prompt_tokens_details?.cached_tokens;
  if (typeof cached === 'number') {
    result.cachedInputTokens = cached;
    result.cacheReadTokens = cached;
  }
  const reasoning = usage.completion_tokens_details?.reasoning_tokens;
  if (typeof reasoning === 'number') result.reasoningTokens = reasoning;
  const extra = usage as unknown as Record<string, unknown>;
  if (typeof extra.prompt_cache_hit_tokens === 'number') {
    result.cacheHitTokens = extra.prompt_cache_hit_tokens;
  }
  if (typeof extra.prompt_cache_miss_tokens === 'number') {
    result.cacheMissTokens = extra.prompt_cache_miss_tokens;
  }
  return result;
}

/** What turning a whole response into a turn needs. */
export interface OpenAITurnContext {
  provider: string;
  names: ToolNameMapping;
  createId: () => string;
  /** The service whose parts the turn keeps (the preset name); `provider` when left out. */
  service?: string;
  /** Rewrites a call's parsed arguments (strict tools: their `null`s for left-out properties). */
  mapArguments?: (toolName: string, args: ToolArguments) => ToolArguments;
}

/**
 * A whole Chat Completions response as a provider turn: text, tool calls (names mapped
 * back, arguments parsed safely; unparsable ones kept with `arguments_error`), finish
 * reason and usage; reasoning fields and each call's `extra_content` kept as provider
 * parts; a `refusal` as finish reason `refusal`. Throws `invalid_response` when the
 * response holds no choice.
 */
export function turnFromChatCompletion(
  completion: ChatCompletion,
  context: OpenAITurnContext,
): ProviderTurn {
  const choice = completion.choices?.[0];
  if (choice?.message == null) {
    throw new ProviderError({
      code: 'invalid_response',
      provider: context.provider,
      message: `${context.provider}: the response holds no message (no choices).`,
    });
  }
  const service = context.service ?? context.provider;
  const toolCalls: AssistantToolCall[] = [];
  const providerParts: ProviderPart[] = messageFieldParts(service, choice.message);
  for (const call of choice.message.tool_calls ?? []) {
    if (call.type !== undefined && call.type !== 'function') continue;
    const fn = 'function' in call ? call.function : undefined;
    const id = typeof call.id === 'string' && call.id !== '' ? call.id : context.createId();
    const name = context.names.fromProvider(fn?.name ?? '');
    const argumentsText = typeof fn?.arguments === 'string' ? fn.arguments : '';
    const toolCall = assistantToolCall(id, name, argumentsText);
    if (context.mapArguments !== undefined && toolCall.arguments_error === undefined) {
      toolCall.arguments = context.mapArguments(name, toolCall.arguments);
    }
    toolCalls.push(toolCall);
    const extra = (call as unknown as Record<string, unknown>).extra_content;
    if (extra != null) providerParts.push(callExtraPart(service, id, extra));
  }
  const refusal =
    typeof choice.message.refusal === 'string' && choice.message.refusal !== ''
      ? choice.message.refusal
      : undefined;
  return providerTurn({
    content: typeof choice.message.content === 'string' ? choice.message.content : null,
    toolCalls,
    finishReason: openAIFinishReason(
      choice.finish_reason,
      toolCalls.length > 0,
      refusal !== undefined,
    ),
    usage: openAIUsage(completion.usage),
    model: typeof completion.model === 'string' ? completion.model : undefined,
    responseId: typeof completion.id === 'string' ? completion.id : undefined,
    providerParts,
    reasoning: reasoningText(providerParts),
    refusal,
    rawFinishReason: choice.finish_reason,
  });
}
