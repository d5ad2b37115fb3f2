import type {
  AssistantToolCall,
  FinishReason,
  ProviderPart,
  ProviderTurn,
  ToolArguments,
  Usage,
} from '@mtpx/protocol';
import { reasoningText } from '@mtpx/protocol/internal';
import { ProviderError } from '../provider-error';
import { assistantContent, providerTurn } from '../provider-turn';
import { assistantToolCall } from '../tool-arguments';
import type { ToolNameMapping } from '../tool-names';
import {
  messageItemRefusal,
  messageItemText,
  partFromItem,
  type ResponsesItem,
  responsePart,
} from './responses-parts';

/** What turning a response into a turn needs. */
export interface ResponsesTurnContext {
  provider: string;
  names: ToolNameMapping;
  /** The service whose parts the turn keeps (the preset name). */
  service: string;
  /** Rewrites a call's parsed arguments (strict tools: their `null`s for left-out properties). */
  mapArguments?: ((toolName: string, args: ToolArguments) => ToolArguments) | undefined;
}

/** A Responses `response` object, as far as the adapter reads it. */
export interface ResponsesResponse {
  id?: unknown;
  model?: unknown;
  status?: unknown;
  output?: unknown;
  usage?: unknown;
  error?: unknown;
  incomplete_details?: unknown;
}

const numberOf = (value: unknown): number | undefined =>
  typeof value === 'number' ? value : undefined;

/**
 * Responses `usage` in MTPX's terms: `input_tokens_details.cached_tokens` as
 * `cachedInputTokens` and `cacheReadTokens`, `cache_write_tokens` as `cacheWriteTokens`,
 * `output_tokens_details.reasoning_tokens` as `reasoningTokens`.
 */
export function responsesUsage(usage: unknown): Usage | undefined {
  if (usage == null || typeof usage !== 'object') return undefined;
  const fields = usage as Record<string, unknown>;
  const inputTokens = numberOf(fields.input_tokens) ?? 0;
  const outputTokens = numberOf(fields.output_tokens) ?? 0;
  const result: Usage = {
    inputTokens,
    outputTokens,
    totalTokens: numberOf(fields.total_tokens) ?? inputTokens + outputTokens,
  };
  const input = (fields.input_tokens_details ?? {}) as Record<string, unknown>;
  const output = (fields.output_tokens_details ?? {}) as Record<string, unknown>;
  const cached = numberOf(input.cached_tokens);
  if (cached !== undefined) {
    result.cachedInputTokens = cached;
    result.cacheReadTokens = cached;
  }
  const written = numberOf(input.cache_write_tokens);
  if (written !== undefined) result.cacheWriteTokens = written;
  const reasoning = numberOf(output.reasoning_tokens);
  if (reasoning !== undefined) result.reasoningTokens = reasoning;
  return result;
}

/** The reason an `incomplete` response gives (`max_output_tokens`, `content_filter`). */
export function incompleteReason(response: ResponsesResponse): string | undefined {
  const reason = (response.incomplete_details as { reason?: unknown } | null | undefined)?.reason;
  return typeof reason === 'string' ? reason : undefined;
}

/**
 * A response's status in MTPX's terms: `completed` is `tool_calls` or `stop`; `incomplete`
 * for `max_output_tokens` is `length`, for `content_filter` `content_filter` (so a
 * runtime holds the side-effecting calls of an unfinished response); a refusal is `refusal`.
 */
export function responsesFinishReason(
  response: ResponsesResponse,
  hasToolCalls: boolean,
  refused: boolean,
): { finishReason: FinishReason; raw: string | undefined } {
  const status = typeof response.status === 'string' ? response.status : undefined;
  if (refused) return { finishReason: 'refusal', raw: status };
  if (status === 'incomplete') {
    const reason = incompleteReason(response);
    if (reason === 'max_output_tokens') return { finishReason: 'length', raw: reason };
    if (reason === 'content_filter') return { finishReason: 'content_filter', raw: reason };
    return { finishReason: 'other', raw: reason ?? status };
  }
  if (status === 'completed' || status === undefined) {
    return { finishReason: hasToolCalls ? 'tool_calls' : 'stop', raw: status };
  }
  return { finishReason: hasToolCalls ? 'tool_calls' : 'other', raw: status };
}

/** A `response.failed` response, or an `error` event, as a {@link ProviderError} with the API's code. */
export function responsesFailure(provider: string, error: unknown): ProviderError {
  const fields = (error ?? {}) as Record<string, unknown>;
  const code =
    typeof fields.code === 'string'
      ? fields.code
      : typeof fields.type === 'string'
        ? fields.type
        : undefined;
  const providerMessage =
    typeof fields.message === 'string' && fields.message !== ''
      ? fields.message
      : 'the response failed';
  return new ProviderError({
    code: 'api_error',
    provider,
    message: `${provider}: ${providerMessage}`,
    providerMessage,
    ...(code === undefined ? {} : { providerCode: code }),
    isRetryable: code === 'server_error' || code === 'rate_limit_exceeded',
  });
}

/** What a response's output items hold, read the same way for whole and streamed responses. */
export function readItems(
  items: ReadonlyArray<{ item: ResponsesItem; index: number }>,
  service: string,
) {
  const parts: ProviderPart[] = items.map(({ item, index }) => partFromItem(service, item, index));
  const messages = items.filter(({ item }) => item.type === 'message');
  const text = messages
    .map(({ item }) => messageItemText(item))
    .filter((each) => each !== '')
    .join('\n\n');
  const refusal = messages.map(({ item }) => messageItemRefusal(item)).join('');
  return { parts, text, refusal };
}

/** The turn, from what was read. */
export function responsesTurn(options: {
  response: ResponsesResponse;
  toolCalls: AssistantToolCall[];
  parts: ProviderPart[];
  text: string;
  refusal: string;
  service: string;
}): ProviderTurn {
  const { response, toolCalls, text, refusal, service } = options;
  const parts = [...options.parts];
  const responseId =
    typeof response.id === 'string' && response.id !== '' ? response.id : undefined;
  if (responseId !== undefined) parts.push(responsePart(service, responseId));
  const { finishReason, raw } = responsesFinishReason(
    response,
    toolCalls.length > 0,
    refusal !== '',
  );
  return providerTurn({
    content: assistantContent(text, toolCalls),
    toolCalls,
    finishReason,
    usage: responsesUsage(response.usage),
    model: typeof response.model === 'string' ? response.model : undefined,
    responseId,
    providerParts: parts,
    reasoning: reasoningText(parts),
    refusal: refusal === '' ? undefined : refusal,
    rawFinishReason: raw,
  });
}

/** The output items of a whole response, at their indexes. */
export function outputItems(
  response: ResponsesResponse,
): Array<{ item: ResponsesItem; index: number }> {
  const output = Array.isArray(response.output) ? response.output : [];
  return output.flatMap((item, index) =>
    item != null &&
    typeof item === 'object' &&
    typeof (item as { type?: unknown }).type === 'string'
      ? [{ item: item as ResponsesItem, index }]
      : [],
  );
}

/**
 * A whole Responses response as a provider turn: function calls (names mapped back,
 * `call_id` as the call's id, arguments parsed safely), text, refusal, finish reason and
 * usage; every output item kept as a provider part at its index. Throws the API's error
 * for a `failed` response.
 */
export function turnFromResponse(
  response: ResponsesResponse,
  context: ResponsesTurnContext,
): ProviderTurn {
  if (response.status === 'failed') throw responsesFailure(context.provider, response.error);
  const items = outputItems(response);
  const toolCalls = items.flatMap(({ item }) => {
    if (item.type !== 'function_call') return [];
    const name = context.names.fromProvider(typeof item.name === 'string' ? item.name : '');
    const call = assistantToolCall(
      String(item.call_id ?? item.id ?? ''),
      name,
      typeof item.arguments === 'string' ? item.arguments : '',
    );
    if (context.mapArguments !== undefined && call.arguments_error === undefined) {
      call.arguments = context.mapArguments(name, call.arguments);
    }
    return [call];
  });
  const { parts, text, refusal } = readItems(items, context.service);
  return responsesTurn({ response, toolCalls, parts, text, refusal, service: context.service });
}
