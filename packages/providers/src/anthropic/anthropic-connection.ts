import { type Environment, environmentValue } from '../environment';
import { ProviderError } from '../provider-error';

/** The environment variable that holds the Anthropic API key. @internal */
export const ANTHROPIC_API_KEY_VARIABLE = 'ANTHROPIC_API_KEY';
/** The environment variable that overrides the Anthropic base URL. @internal */
export const ANTHROPIC_BASE_URL_VARIABLE = 'ANTHROPIC_BASE_URL';

/** Where the Anthropic key and base URL come from: explicit values win over the variables. */
export interface AnthropicConnectionOptions {
  apiKey?: string | undefined;
  baseURL?: string | undefined;
  /** The environment to read; `process.env` when left out. */
  env?: Environment | undefined;
}

/**
 * The Anthropic key and base URL (`undefined`: the SDK's default). Throws a
 * {@link ProviderError} with code `missing_api_key` when there is no key. It loads no
 * SDK, so `createProvider` can check the key before importing one.
 */
export function resolveAnthropicConnection(options: AnthropicConnectionOptions): {
  apiKey: string;
  baseURL: string | undefined;
} {
  const env = options.env ?? process.env;
  const apiKey = options.apiKey ?? environmentValue(env, ANTHROPIC_API_KEY_VARIABLE);
  if (apiKey === undefined) {
    throw new ProviderError({
      code: 'missing_api_key',
      provider: 'anthropic',
      apiKeyVariable: ANTHROPIC_API_KEY_VARIABLE,
      message: `Anthropic needs an API key: set the ${ANTHROPIC_API_KEY_VARIABLE} environment variable (or pass apiKey).`,
    });
  }
  return { apiKey, baseURL: options.baseURL ?? environmentValue(env, ANTHROPIC_BASE_URL_VARIABLE) };
}
