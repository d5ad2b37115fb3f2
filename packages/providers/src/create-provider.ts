import type { Provider } from '@mtpx/protocol';
import {
  ANTHROPIC_API_KEY_VARIABLE,
  ANTHROPIC_BASE_URL_VARIABLE,
  resolveAnthropicConnection,
} from './anthropic/anthropic-connection';
import type { Environment } from './environment';
import {
  isOpenAICompatiblePresetName,
  type OpenAICompatiblePresetName,
  openAICompatiblePresets,
  resolveOpenAICompatiblePreset,
} from './openai/openai-presets';
import { ProviderError } from './provider-error';

/** A service `createProvider` knows by name: `anthropic`, or an OpenAI-compatible preset. */
export type ProviderName = 'anthropic' | OpenAICompatiblePresetName;

/** Every {@link ProviderName}: `anthropic`, then the OpenAI-compatible presets in table order. */
export const providerNames: readonly ProviderName[] = [
  'anthropic',
  ...(Object.keys(openAICompatiblePresets) as OpenAICompatiblePresetName[]),
];

/** Whether `name` is a service `createProvider` knows (a command-line flag, a config value). */
export function isProviderName(name: string): name is ProviderName {
  return name === 'anthropic' || isOpenAICompatiblePresetName(name);
}

/** The Anthropic SDK's own default base URL. */
const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';

/** Where a named service's key and base URL come from, for a `--help` text or a setup guide. */
export interface ProviderDescription {
  /** The service's name for people: `Groq`, `LM Studio`. */
  label: string;
  /** The environment variable that holds its API key: `GROQ_API_KEY`. */
  apiKeyVariable: string;
  /** The environment variable that overrides its base URL: `GROQ_BASE_URL`. */
  baseURLVariable: string;
  /** The base URL used when neither an option nor that variable sets one. */
  baseURL: string;
  /** False for local servers (Ollama, LM Studio, vLLM), which need no key. */
  apiKeyRequired: boolean;
}

/**
 * The label and environment variables of a service {@link createProvider} knows. Loads
 * no SDK.
 *
 * @example
 * ```ts source="./create-provider.examples.ts#describeProvider"
 * for (const name of providerNames) console.log(name, describeProvider(name).apiKeyVariable);
 * ```
 */
export function describeProvider(name: ProviderName): ProviderDescription {
  if (name === 'anthropic')
    return {
      label: 'Anthropic',
      apiKeyVariable: ANTHROPIC_API_KEY_VARIABLE,
      baseURLVariable: ANTHROPIC_BASE_URL_VARIABLE,
      baseURL: ANTHROPIC_DEFAULT_BASE_URL,
      apiKeyRequired: true,
    };
  const { label, apiKeyVariable, baseURLVariable, baseURL, apiKeyRequired } =
    openAICompatiblePresets[name];
  return { label, apiKeyVariable, baseURLVariable, baseURL, apiKeyRequired };
}

/** Which service and model `createProvider` builds a provider for, and how to reach it. */
export interface CreateProviderOptions {
  /** `anthropic`, or an OpenAI-compatible preset (`openai`, `groq`, `ollama`, …). */
  provider: ProviderName;
  /** The model id. There is no default: model names change faster than this package. */
  model: string;
  /** The API key; wins over the service's key variable (`ANTHROPIC_API_KEY`, `GROQ_API_KEY`, …). */
  apiKey?: string | undefined;
  /** The base URL; wins over the service's URL variable and its default URL. */
  baseURL?: string | undefined;
  /** The environment to read keys and URLs from; `process.env` when left out. */
  env?: Environment | undefined;
  /** How often the SDK retries retryable failures, with backoff. Default 2. */
  maxRetries?: number | undefined;
  /** Per-request timeout in milliseconds. */
  timeoutMs?: number | undefined;
  /** `max_tokens` for every request (Anthropic's default: 4096; OpenAI-compatible: the API's). */
  maxTokens?: number | undefined;
  /** Extra request body fields the service understands. */
  body?: Record<string, unknown> | undefined;
  /**
   * Send tools with `strict: true` where the service's strict subset allows (see each
   * adapter's `strictTools`; only for services that support strict tools). Default false.
   */
  strictTools?: boolean | undefined;
  /**
   * Which OpenAI wire an OpenAI-compatible service is spoken over: `responses` (`POST
   * /v1/responses`: reasoning items kept across tool rounds) or `chat` (Chat
   * Completions). Default: `responses` for `openai`, `chat` for every other preset (give
   * `responses` for a service that implements it: xAI, Azure OpenAI, vLLM, Ollama, …).
   * Not for `anthropic`.
   */
  api?: 'chat' | 'responses' | undefined;
}

/**
 * A provider for a service named at run time (a `--provider` flag, a config file): the
 * Anthropic adapter for `anthropic`; for `openai`, the Responses API adapter (`api:
 * 'chat'` for Chat Completions); for every other preset the Chat Completions adapter
 * (`api: 'responses'` for the Responses API). The key and base URL are resolved first, then only the chosen
 * adapter's entry (and so only its SDK) is loaded: `@mtpx/providers` itself loads neither.
 *
 * Throws a {@link ProviderError} with code `missing_api_key` (and `apiKeyVariable`, the
 * variable to set) when a hosted service has no key, before any SDK is loaded; and
 * `invalid_options` for a name it does not know.
 *
 * @example
 * ```ts source="./create-provider.examples.ts#createProvider"
 * const [name = 'groq', model = 'llama-3.3-70b-versatile'] = process.argv.slice(2);
 * if (!isProviderName(name)) throw new Error(`Unknown provider: ${name}`);
 * const provider = await createProvider({ provider: name, model }); // reads GROQ_API_KEY
 * ```
 */
export async function createProvider(options: CreateProviderOptions): Promise<Provider> {
  const { provider, model, env, maxRetries, timeoutMs, maxTokens, body, strictTools } = options;
  const shared = { model, maxRetries, timeoutMs, maxTokens, body, strictTools };
  if (provider === 'anthropic') {
    if (options.api !== undefined) {
      throw new ProviderError({
        code: 'invalid_options',
        provider,
        message: `anthropic speaks the Messages API only: leave out api (got "${options.api}").`,
      });
    }
    const { apiKey, baseURL } = resolveAnthropicConnection(options);
    const { createAnthropicProvider } = await import('./anthropic');
    return createAnthropicProvider({ ...shared, apiKey, baseURL });
  }
  if (!isOpenAICompatiblePresetName(provider)) {
    throw new ProviderError({
      code: 'invalid_options',
      provider: String(provider),
      message: `Unknown provider "${String(provider)}". Known providers: ${providerNames.join(', ')}.`,
    });
  }
  const { apiKey, baseURL } = resolveOpenAICompatiblePreset({
    preset: provider,
    apiKey: options.apiKey,
    baseURL: options.baseURL,
    env,
  });
  const api = options.api ?? (provider === 'openai' ? 'responses' : 'chat');
  const { createOpenAIProvider, createOpenAIResponsesProvider } = await import('./openai');
  if (api === 'responses') {
    return createOpenAIResponsesProvider({
      model,
      maxRetries,
      timeoutMs,
      maxOutputTokens: maxTokens,
      body,
      strictTools,
      preset: provider,
      apiKey,
      baseURL,
    });
  }
  return createOpenAIProvider({ ...shared, preset: provider, apiKey, baseURL });
}
