import type { Provider, ProviderEvent, ProviderRequest, ProviderTurn } from '@mtpx/protocol';
import type OpenAI from 'openai';
import { openAIConnection } from '../openai/openai-client';
import type { OpenAICompatiblePresetName } from '../openai/openai-presets';
import type { OpenAIProviderOptions, OpenAIReasoningEffort } from '../openai/openai-provider';
import { strictArgumentsMapper } from '../openai/openai-request';
import { assembleProviderStream, sendRequest } from '../provider-stream';
import { createToolNameMapping } from '../tool-names';
import { chainedInput, toResponsesInput, toResponsesTools } from './responses-request';
import { ResponsesStreamAssembler, type ResponsesStreamEvent } from './responses-stream';
import { responsesToolsWithSearch } from './responses-tool-search';
import {
  type ResponsesResponse,
  type ResponsesTurnContext,
  turnFromResponse,
} from './responses-turn';

/** How much of its reasoning a model summarises (`reasoning.summary`). */
export type OpenAIReasoningSummary = 'auto' | 'concise' | 'detailed';

/** How to reach a Responses API (`POST /v1/responses`), and what to ask it. */
export interface OpenAIResponsesProviderOptions
  extends Omit<OpenAIProviderOptions, 'streamUsage' | 'maxTokens'> {
  /** `max_output_tokens` for every request (reasoning tokens included). */
  maxOutputTokens?: number;
  /** `reasoning.effort` for reasoning models. Left to the API when unset. */
  reasoningEffort?: OpenAIReasoningEffort;
  /** `reasoning.summary`: ask for readable summaries of the reasoning (streamed as `reasoning-delta`). */
  reasoningSummary?: OpenAIReasoningSummary;
  /**
   * `store`: whether the API keeps the responses (default true). With `false` (required
   * under zero data retention) the adapter asks for `reasoning.encrypted_content` and
   * sends each reasoning item back whole; with `true` it sends them by `item_reference`.
   */
  store?: boolean;
  /**
   * Chain requests with `previous_response_id`: send only what came after the last
   * response this adapter made, instead of the whole conversation. Needs `store: true`.
   * Default false: every request carries the whole input, so a run resumes anywhere.
   */
  previousResponseId?: boolean;
  /** `prompt_cache_key`: groups requests that share a long prefix, for cache hits. */
  promptCacheKey?: string;
  /** `service_tier` (`auto`, `default`, `flex`, `priority`). */
  serviceTier?: 'auto' | 'default' | 'flex' | 'scale' | 'priority';
  /**
   * The API's own tool search: the provider's `nativeToolSearch` is then true, so an agent
   * with `toolSearch` sends its deferred tools as functions with `defer_loading: true` and
   * `{ "type": "tool_search" }`, and the API finds them (`tool_search_call` and
   * `tool_search_output` items, kept and sent back as they came; a found function's call
   * goes back with its `namespace`). Default false.
   */
  toolSearch?: boolean;
}

/** A {@link Provider} for OpenAI's Responses API (or a service that implements it). */
export interface OpenAIResponsesProvider extends Provider {
  readonly name: 'openai';
  /** Which OpenAI wire it speaks. */
  readonly api: 'responses';
  /** The service, as a preset name. */
  readonly preset: OpenAICompatiblePresetName;
  /** The `openai` client the provider sends requests with. */
  readonly client: OpenAI;
  /** Whether tools are sent with `strict: true` where their schema allows. */
  readonly strictTools: boolean;
  /** Whether responses are stored (`store`). */
  readonly store: boolean;
  /** True with `toolSearch`: deferred tools are found by the API's own search. */
  readonly nativeToolSearch: boolean;
}

/**
 * A provider for OpenAI's Responses API (`POST /v1/responses`), on the official `openai`
 * SDK. Streamed function calls are reported ready one by one, each as soon as its item is
 * done; reasoning items, and items the API runs itself (web search, code interpreter,
 * hosted MCP, …), are kept as provider parts and sent back exactly, in their order: by
 * reference when `store` is true (default), whole with their encrypted content when it
 * is false. Reasoning summaries stream as `reasoning-delta`.
 *
 * Throws a {@link @mtpx/providers!ProviderError | ProviderError} with code `missing_api_key` when a hosted preset has no key.
 *
 * @example
 * ```ts source="./responses-provider.examples.ts#createOpenAIResponsesProvider"
 * const provider = createOpenAIResponsesProvider({
 *   model: 'gpt-5-mini',
 *   reasoningEffort: 'low',
 *   reasoningSummary: 'auto',
 *   store: false, // zero data retention: reasoning comes back encrypted and is sent back whole
 * });
 * const turn = await provider.generate({ messages: [{ role: 'user', content: 'Hi' }], tools: [] });
 * ```
 */
export function createOpenAIResponsesProvider(
  options: OpenAIResponsesProviderOptions,
): OpenAIResponsesProvider {
  const { preset, client } = openAIConnection(options);
  const strictTools = options.strictTools ?? false;
  const store = options.store ?? true;
  const toolSearch = options.toolSearch === true;

  function requestBody(request: ProviderRequest, context: ResponsesTurnContext) {
    const chained =
      options.previousResponseId === true && store
        ? chainedInput(request.messages, preset)
        : undefined;
    const body: Record<string, unknown> = {
      ...options.body,
      model: options.model,
      input: toResponsesInput(chained?.messages ?? request.messages, {
        names: context.names,
        service: preset,
        store,
      }),
      store,
    };
    if (chained !== undefined) body.previous_response_id = chained.previousResponseId;
    if (!store) {
      const include = Array.isArray(options.body?.include)
        ? (options.body.include as string[])
        : [];
      body.include = [...new Set([...include, 'reasoning.encrypted_content'])];
    }
    if (options.reasoningEffort !== undefined || options.reasoningSummary !== undefined) {
      body.reasoning = {
        ...(options.body?.reasoning as object | undefined),
        ...(options.reasoningEffort === undefined ? {} : { effort: options.reasoningEffort }),
        ...(options.reasoningSummary === undefined ? {} : { summary: options.reasoningSummary }),
      };
    }
    const deferred = toolSearch ? (request.deferredTools ?? []) : [];
    if (deferred.length > 0) {
      body.tools = responsesToolsWithSearch({
        tools: request.tools,
        deferred,
        names: context.names,
        strict: strictTools,
      });
      if (options.parallelToolCalls !== undefined)
        body.parallel_tool_calls = options.parallelToolCalls;
    } else if (request.tools.length > 0) {
      body.tools = toResponsesTools(request.tools, context.names, strictTools);
      if (options.parallelToolCalls !== undefined)
        body.parallel_tool_calls = options.parallelToolCalls;
    }
    if (options.promptCacheKey !== undefined) body.prompt_cache_key = options.promptCacheKey;
    if (options.serviceTier !== undefined) body.service_tier = options.serviceTier;
    if (options.temperature !== undefined) body.temperature = options.temperature;
    if (options.maxOutputTokens !== undefined) body.max_output_tokens = options.maxOutputTokens;
    return body;
  }

  function turnContext(request: ProviderRequest): ResponsesTurnContext {
    const tools = [...request.tools, ...(toolSearch ? (request.deferredTools ?? []) : [])];
    return {
      provider: preset,
      names: createToolNameMapping(tools.map((tool) => tool.name)),
      service: preset,
      mapArguments: strictTools ? strictArgumentsMapper(tools) : undefined,
    };
  }

  // The SDK's parameter types are a union of every item shape; the body is built from
  // the API's own items, so it is handed over as it is.
  type CreateBody = Parameters<OpenAI['responses']['create']>[0];

  async function generate(request: ProviderRequest): Promise<ProviderTurn> {
    const context = turnContext(request);
    const { signal } = request;
    const response = await sendRequest(
      preset,
      signal,
      () =>
        client.responses.create({ ...requestBody(request, context), stream: false } as CreateBody, {
          signal,
        }) as Promise<unknown>,
      client.baseURL,
    );
    return turnFromResponse(response as ResponsesResponse, context);
  }

  async function* stream(request: ProviderRequest): AsyncGenerator<ProviderEvent, void, undefined> {
    const context = turnContext(request);
    const { signal } = request;
    yield* assembleProviderStream({
      provider: preset,
      signal,
      baseURL: client.baseURL,
      open: async () =>
        (await client.responses.create(
          { ...requestBody(request, context), stream: true } as CreateBody,
          { signal },
        )) as unknown as AsyncIterable<ResponsesStreamEvent>,
      assembler: new ResponsesStreamAssembler(context),
    });
  }

  return {
    name: 'openai',
    api: 'responses',
    model: options.model,
    preset,
    client,
    strictTools,
    store,
    nativeToolSearch: toolSearch,
    generate,
    stream,
  };
}
