import type { Provider, ProviderEvent, ProviderRequest, ProviderTurn } from '@mtpx/protocol';
import type OpenAI from 'openai';
import type { ClientOptions } from 'openai';
import type { ChatCompletionCreateParamsBase } from 'openai/resources/chat/completions';
import { createFallbackCallId } from '../call-ids';
import type { Environment } from '../environment';
import { assembleProviderStream, sendRequest } from '../provider-stream';
import { createToolNameMapping } from '../tool-names';
import { openAIConnection } from './openai-client';
import type { OpenAICompatiblePresetName } from './openai-presets';
import { strictArgumentsMapper, toOpenAIMessages, toOpenAITools } from './openai-request';
import { type OpenAITurnContext, turnFromChatCompletion } from './openai-response';
import { OpenAIStreamAssembler } from './openai-stream';

/** How to reach an OpenAI-compatible Chat Completions API, and what to ask it. */
export interface OpenAIProviderOptions {
  /** The model id (`gpt-4.1-mini`, `llama-3.3-70b-versatile`, `mimo-v2-flash`, …). */
  model: string;
  /** A known service; `openai` when left out. Sets the base URL and the key variable. */
  preset?: OpenAICompatiblePresetName;
  /**
   * Your own `openai` client. When given, it is used as it is: `apiKey`, `baseURL`,
   * `maxRetries`, `timeoutMs` and `clientOptions` are ignored.
   */
  client?: OpenAI;
  /** The API key; wins over the preset's environment variable. */
  apiKey?: string;
  /** The base URL; wins over the preset's URL and its environment variable. */
  baseURL?: string;
  /** The environment to read keys and URLs from; `process.env` when left out. */
  env?: Environment;
  /**
   * How often the SDK retries 408, 409, 429, 5xx and connection failures, with
   * exponential backoff that honours `retry-after`. MTPX never retries on top. Default 2.
   */
  maxRetries?: number;
  /** Per-request timeout in milliseconds (the SDK's `timeout`). */
  timeoutMs?: number;
  /** Any other `openai` client option (`fetch`, `defaultHeaders`, …). */
  clientOptions?: Omit<ClientOptions, 'apiKey' | 'baseURL'>;
  /** `temperature` for every request. */
  temperature?: number;
  /** `max_tokens` for every request. */
  maxTokens?: number;
  /** `parallel_tool_calls` for requests with tools; left to the API's default when unset. */
  parallelToolCalls?: boolean;
  /** Ask for token usage at the end of streams (`stream_options.include_usage`). Default true. */
  streamUsage?: boolean;
  /**
   * `reasoning_effort` for reasoning models (OpenAI o-series and gpt-5, gpt-oss on Groq,
   * Ollama or vLLM, Gemini's OpenAI-compatible endpoint, …). Left to the API when unset.
   */
  reasoningEffort?: OpenAIReasoningEffort;
  /** Extra request body fields the service understands (`thinking`, `reasoning`, …). */
  body?: Record<string, unknown>;
  /**
   * Send function tools with `strict: true` (Structured Outputs: arguments constrained to
   * the schema) wherever the schema can be made to fit OpenAI's strict subset: objects get
   * `additionalProperties: false`, optional properties are sent required but nullable
   * (their `null`s are removed from the arguments again), `default` is dropped; a tool
   * whose schema still does not fit is sent without `strict`. The provider's `strictTools`
   * is then true, so an agent offers schemas that also accept `{"$ref": …}`. Only for
   * services that support strict function tools. Default false.
   */
  strictTools?: boolean;
}

/** How much a reasoning model thinks before it answers (`reasoning_effort`). */
export type OpenAIReasoningEffort = 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh';

/** A {@link Provider} for an OpenAI-compatible Chat Completions API. */
export interface OpenAIProvider extends Provider {
  readonly name: 'openai';
  /** The service, as a preset name (`openai` for a client passed in without a preset). */
  readonly preset: OpenAICompatiblePresetName;
  /** The `openai` client the provider sends requests with. */
  readonly client: OpenAI;
  /** Whether tools are sent with `strict: true` (see {@link OpenAIProviderOptions.strictTools}). */
  readonly strictTools: boolean;
}

/**
 * A provider for OpenAI's Chat Completions API or any compatible service, on the
 * official `openai` SDK. Tool names with dots are mapped to names the API accepts and
 * back; `function.arguments` is parsed safely; streamed tool calls are reported ready
 * one by one, as soon as each is complete.
 *
 * Throws a {@link @mtpx/providers!ProviderError | ProviderError} with code `missing_api_key` when a hosted preset has no
 * key (its message names the variable to set).
 *
 * @example
 * ```ts source="./openai-provider.examples.ts#createOpenAIProvider"
 * const provider = createOpenAIProvider({ preset: 'groq', model: 'llama-3.3-70b-versatile' });
 * const turn = await provider.generate({ messages: [{ role: 'user', content: 'Hi' }], tools: [] });
 * ```
 */
export function createOpenAIProvider(options: OpenAIProviderOptions): OpenAIProvider {
  const { preset, client } = openAIConnection(options);
  const label = preset;
  const streamUsage = options.streamUsage ?? true;
  const strictTools = options.strictTools ?? false;

  function requestBody(request: ProviderRequest, context: OpenAITurnContext) {
    const body: ChatCompletionCreateParamsBase = {
      ...options.body,
      model: options.model,
      messages: toOpenAIMessages(request.messages, context.names, preset),
    };
    if (options.reasoningEffort !== undefined) {
      (body as { reasoning_effort?: string }).reasoning_effort = options.reasoningEffort;
    }
    if (request.tools.length > 0) {
      body.tools = toOpenAITools(request.tools, context.names, strictTools);
      if (options.parallelToolCalls !== undefined) {
        body.parallel_tool_calls = options.parallelToolCalls;
      }
    }
    if (options.temperature !== undefined) body.temperature = options.temperature;
    if (options.maxTokens !== undefined) body.max_tokens = options.maxTokens;
    return body;
  }

  function turnContext(request: ProviderRequest): OpenAITurnContext {
    return {
      provider: label,
      names: createToolNameMapping(request.tools.map((tool) => tool.name)),
      createId: createFallbackCallId,
      service: preset,
      ...(strictTools ? { mapArguments: strictArgumentsMapper(request.tools) } : {}),
    };
  }

  async function generate(request: ProviderRequest): Promise<ProviderTurn> {
    const context = turnContext(request);
    const { signal } = request;
    const completion = await sendRequest(
      label,
      signal,
      () =>
        client.chat.completions.create(
          { ...requestBody(request, context), stream: false },
          { signal },
        ),
      client.baseURL,
    );
    return turnFromChatCompletion(completion, context);
  }

  async function* stream(request: ProviderRequest): AsyncGenerator<ProviderEvent, void, undefined> {
    const context = turnContext(request);
    const { signal } = request;
    yield* assembleProviderStream({
      provider: label,
      signal,
      baseURL: client.baseURL,
      open: () =>
        client.chat.completions.create(
          {
            ...requestBody(request, context),
            stream: true,
            ...(streamUsage ? { stream_options: { include_usage: true } } : {}),
          },
          { signal },
        ),
      assembler: new OpenAIStreamAssembler(context),
    });
  }

  return {
    name: 'openai',
    model: options.model,
    preset,
    client,
    strictTools,
    generate,
    stream,
  };
}
