import Anthropic, { type ClientOptions } from '@anthropic-ai/sdk';
import type { Provider, ProviderEvent, ProviderRequest, ProviderTurn } from '@mtpx/protocol';
import type { Environment } from '../environment';
import { assembleProviderStream, sendRequest } from '../provider-stream';
import { createToolNameMapping } from '../tool-names';
import { resolveAnthropicConnection } from './anthropic-connection';
import { toAnthropicConversation, toAnthropicTools } from './anthropic-request';
import { type AnthropicTurnContext, turnFromAnthropicMessage } from './anthropic-response';
import { AnthropicStreamAssembler } from './anthropic-stream';
import {
  type AnthropicToolSearch,
  anthropicToolsWithSearch,
  checkAnthropicToolSearch,
} from './anthropic-tool-search';

/** The `max_tokens` sent when none is given: the Messages API requires one. */
export const DEFAULT_ANTHROPIC_MAX_TOKENS = 4096;

/** How to reach the Anthropic Messages API, and what to ask it. */
export interface AnthropicProviderOptions {
  /** The model id (`claude-sonnet-4-6`, `claude-haiku-4-5`, …). */
  model: string;
  /**
   * Your own `@anthropic-ai/sdk` client. When given, it is used as it is: `apiKey`,
   * `baseURL`, `maxRetries`, `timeoutMs` and `clientOptions` are ignored.
   */
  client?: Anthropic;
  /** The API key; wins over `ANTHROPIC_API_KEY`. */
  apiKey?: string;
  /** The base URL; wins over `ANTHROPIC_BASE_URL`. */
  baseURL?: string;
  /** The environment to read the key and URL from; `process.env` when left out. */
  env?: Environment;
  /**
   * How often the SDK retries 408, 409, 429, 5xx (529 overloaded included) and
   * connection failures, with backoff that honours `retry-after`. MTPX never retries on
   * top. Default 2.
   */
  maxRetries?: number;
  /** Per-request timeout in milliseconds (the SDK's `timeout`). */
  timeoutMs?: number;
  /** Any other client option (`fetch`, `defaultHeaders`, …). */
  clientOptions?: Omit<ClientOptions, 'apiKey' | 'baseURL'>;
  /** `max_tokens` for every request (required by the API). Default 4096. */
  maxTokens?: number;
  /**
   * Extended thinking: `{ budgetTokens }` (sent as `thinking: { type: "enabled",
   * budget_tokens }`; `max_tokens` defaults to the budget plus 4096), or `{ adaptive: true }`
   * for models that decide how much to think (`thinking: { type: "adaptive" }`). Thinking
   * blocks (with their signatures) and redacted thinking are kept and sent back.
   */
  thinking?: AnthropicThinkingOptions;
  /** `output_config.effort` for models that take it. */
  effort?: AnthropicEffort;
  /** Extra request body fields (`metadata`, sampling settings the model accepts, …). */
  body?: Record<string, unknown>;
  /**
   * Send tools with `strict: true` (grammar-constrained tool inputs), as many as fit
   * Anthropic's limits — 20 strict tools, 24 optional and 16 union-typed parameters in
   * all — in the order given; objects get `additionalProperties: false`. The provider's
   * `strictTools` is then true, so an agent offers schemas that also accept
   * `{"$ref": …}` (each such value position is one union parameter). Default false.
   */
  strictTools?: boolean;
  /**
   * Mark the request's stable prefix for Anthropic's prompt cache: a `cache_control`
   * breakpoint on the last tool and on the system prompt (sent as one text block), so
   * later requests of a conversation read the tools and instructions from the cache
   * (billed as `cache_read_input_tokens`) instead of paying them in full. The API caches
   * only prefixes of at least 1,024 tokens (2,048 on Haiku models); shorter ones are sent
   * as usual. `true` is a 5-minute cache, `{ ttl: '1h' }` an hour's. Default false.
   */
  promptCache?: boolean | { ttl: '5m' | '1h' };
  /**
   * Anthropic's own tool search: the provider's `nativeToolSearch` is then true, so an agent
   * with `toolSearch` sends its deferred tools with `defer_loading: true` and this search
   * tool (`tool_search_tool_bm25_20251119` for `'bm25'`, `…regex…` for `'regex'`), and the
   * API finds them (`server_tool_use` and `tool_search_tool_result` blocks, kept and sent
   * back as they came). Models that support it: see Anthropic's tool search docs. Default:
   * off.
   */
  toolSearch?: AnthropicToolSearch;
}

/** Extended thinking settings: a token budget, or adaptive thinking. */
export type AnthropicThinkingOptions =
  | { budgetTokens: number; display?: 'summarized' | 'omitted' }
  | { adaptive: true; display?: 'summarized' | 'omitted' };

/** How much effort the model puts into its answer (`output_config.effort`). */
export type AnthropicEffort = 'low' | 'medium' | 'high' | 'xhigh' | 'max';

function thinkingBody(thinking: AnthropicThinkingOptions): Anthropic.ThinkingConfigParam {
  const display = thinking.display === undefined ? {} : { display: thinking.display };
  if ('adaptive' in thinking) return { type: 'adaptive', ...display };
  return { type: 'enabled', budget_tokens: thinking.budgetTokens, ...display };
}

function defaultMaxTokens(options: AnthropicProviderOptions): number {
  const budget =
    options.thinking !== undefined && 'budgetTokens' in options.thinking
      ? options.thinking.budgetTokens
      : 0;
  return budget + DEFAULT_ANTHROPIC_MAX_TOKENS;
}

function cacheControlOf(
  option: AnthropicProviderOptions['promptCache'],
): Anthropic.CacheControlEphemeral | undefined {
  if (option === undefined || option === false) return undefined;
  return option === true ? { type: 'ephemeral' } : { type: 'ephemeral', ttl: option.ttl };
}

/** Breakpoints after the tools and after the system prompt: the part that does not change. */
function markCachePrefix(
  body: Anthropic.MessageCreateParamsNonStreaming,
  cacheControl: Anthropic.CacheControlEphemeral,
): void {
  const lastTool = body.tools?.at(-1);
  if (lastTool !== undefined)
    body.tools?.splice(-1, 1, { ...lastTool, cache_control: cacheControl });
  if (typeof body.system === 'string') {
    body.system = [{ type: 'text', text: body.system, cache_control: cacheControl }];
  }
}

/** A {@link Provider} for the Anthropic Messages API. */
export interface AnthropicProvider extends Provider {
  readonly name: 'anthropic';
  /** The `@anthropic-ai/sdk` client the provider sends requests with. */
  readonly client: Anthropic;
  /** Whether tools are sent with `strict: true` (see {@link AnthropicProviderOptions.strictTools}). */
  readonly strictTools: boolean;
  /** True with `toolSearch`: deferred tools are found by the API's own search. */
  readonly nativeToolSearch: boolean;
}

const label = 'anthropic';

function buildClient(options: AnthropicProviderOptions): Anthropic {
  if (options.client) return options.client;
  const { apiKey, baseURL } = resolveAnthropicConnection(options);
  return new Anthropic({
    ...options.clientOptions,
    apiKey,
    ...(baseURL === undefined ? {} : { baseURL }),
    ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
    ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }),
  });
}

/**
 * A provider for the Anthropic Messages API on the official `@anthropic-ai/sdk`.
 * Tools are sent as `tools` (names with dots mapped to names the API accepts, and
 * back); `tool_use` blocks become tool calls; tool results go back as `tool_result`
 * blocks (with `is_error`) in the next user message; system messages become `system`.
 * Streamed calls are reported ready at their block's `content_block_stop`.
 *
 * Throws a {@link @mtpx/providers!ProviderError | ProviderError} with code `missing_api_key` when no key is given and
 * `ANTHROPIC_API_KEY` is unset.
 *
 * @example
 * ```ts source="./anthropic-provider.examples.ts#createAnthropicProvider"
 * const provider = createAnthropicProvider({ model: 'claude-sonnet-4-6' });
 * for await (const event of provider.stream({ messages, tools })) console.log(event.type);
 * ```
 */
export function createAnthropicProvider(options: AnthropicProviderOptions): AnthropicProvider {
  const client = buildClient(options);
  const strictTools = options.strictTools ?? false;
  const cacheControl = cacheControlOf(options.promptCache);
  const toolSearch = checkAnthropicToolSearch(options.toolSearch);

  function requestBody(request: ProviderRequest, context: AnthropicTurnContext) {
    const conversation = toAnthropicConversation(request.messages, context.names);
    const body: Anthropic.MessageCreateParamsNonStreaming = {
      ...options.body,
      model: options.model,
      max_tokens: options.maxTokens ?? defaultMaxTokens(options),
      messages: conversation.messages,
    };
    if (options.thinking !== undefined) body.thinking = thinkingBody(options.thinking);
    if (options.effort !== undefined) {
      body.output_config = { ...body.output_config, effort: options.effort };
    }
    if (conversation.system !== undefined) body.system = conversation.system;
    const deferred = toolSearch === undefined ? [] : (request.deferredTools ?? []);
    if (deferred.length > 0 && toolSearch !== undefined) {
      body.tools = anthropicToolsWithSearch({
        tools: request.tools,
        deferred,
        names: context.names,
        strict: strictTools,
        search: toolSearch,
      });
    } else if (request.tools.length > 0) {
      body.tools = toAnthropicTools(request.tools, context.names, strictTools);
    }
    if (cacheControl !== undefined) markCachePrefix(body, cacheControl);
    return body;
  }

  function turnContext(request: ProviderRequest): AnthropicTurnContext {
    return {
      provider: label,
      names: createToolNameMapping(
        [...request.tools, ...(request.deferredTools ?? [])].map((tool) => tool.name),
      ),
    };
  }

  async function generate(request: ProviderRequest): Promise<ProviderTurn> {
    const context = turnContext(request);
    const { signal } = request;
    const response = await sendRequest(
      label,
      signal,
      () => client.messages.create({ ...requestBody(request, context), stream: false }, { signal }),
      client.baseURL,
    );
    return turnFromAnthropicMessage(response, context);
  }

  async function* stream(request: ProviderRequest): AsyncGenerator<ProviderEvent, void, undefined> {
    const context = turnContext(request);
    const { signal } = request;
    yield* assembleProviderStream({
      provider: label,
      signal,
      baseURL: client.baseURL,
      open: () =>
        client.messages.create({ ...requestBody(request, context), stream: true }, { signal }),
      assembler: new AnthropicStreamAssembler(context),
    });
  }

  return {
    name: 'anthropic',
    model: options.model,
    client,
    strictTools,
    nativeToolSearch: toolSearch !== undefined,
    generate,
    stream,
  };
}
