import type { Provider } from '@mtpx/protocol';
import {
  createProvider,
  describeProvider,
  type ProviderName as KnownProvider,
  ProviderError,
  providerNames,
} from '@mtpx/providers';
import { namingBaseUrl } from './base-url-errors';
import { CliError } from './cli-error';
import { httpUrlFlag } from './cli-flags';

/** The services `--provider` accepts: every one `createProvider` of `@mtpx/providers` knows. */
export const PROVIDER_NAMES: readonly KnownProvider[] = providerNames;

/** One of {@link PROVIDER_NAMES}. */
export type ProviderName = KnownProvider;

/**
 * The model used when `--model` is left out. The apps keep these, not the library: model
 * names go stale. Local servers serve what you loaded, so they need `--model`.
 */
const DEFAULT_MODELS: Partial<Record<ProviderName, string>> = {
  openai: 'gpt-4.1-mini',
  anthropic: 'claude-sonnet-5-5',
  groq: 'llama-3.3-70b-versatile',
  together: 'meta-llama/Llama-3.3-70B-Instruct-Turbo',
  fireworks: 'accounts/fireworks/models/llama-v3p3-70b-instruct',
  cerebras: 'llama-3.3-70b',
  deepseek: 'deepseek-chat',
  mistral: 'mistral-large-latest',
  sambanova: 'Meta-Llama-3.3-70B-Instruct',
  mimo: 'mimo-v2-flash',
  openrouter: 'openai/gpt-4.1-mini',
  ollama: 'llama3.1',
};

/** The flags that choose a real model. */
export const MODEL_FLAGS = {
  provider: { type: 'string' },
  model: { type: 'string' },
  'base-url': { type: 'string' },
  api: { type: 'string' },
} as const;

/** What `--provider`, `--model` and `--base-url` asked for. */
export interface ModelChoice {
  provider: ProviderName;
  model?: string | undefined;
  baseUrl?: string | undefined;
  /** `--api`: which OpenAI wire (`responses` is the default for `openai`, `chat` for other presets). */
  api?: 'chat' | 'responses' | undefined;
}

/** A real model, ready to call, and how to name it in output. */
export interface ModelProvider {
  provider: Provider;
  /** `groq llama-3.3-70b-versatile` */
  label: string;
  /** The base URL it calls: `--base-url`, else the service's variable, else its default. */
  baseUrl: string;
}

/**
 * The `--help` lines that list every `--provider` with the environment variables it
 * reads, one service a line: `  groq        GROQ_API_KEY, GROQ_BASE_URL`.
 */
export function providerHelpLines(indent = '  '): string {
  const width = Math.max(...PROVIDER_NAMES.map((name) => name.length));
  return PROVIDER_NAMES.map((name) => {
    const { apiKeyVariable, baseURLVariable, apiKeyRequired } = describeProvider(name);
    const key = apiKeyRequired ? apiKeyVariable : `${apiKeyVariable} (optional)`;
    const model = DEFAULT_MODELS[name] === undefined ? ' · needs --model' : '';
    return `${indent}${name.padEnd(width)}  ${key}, ${baseURLVariable}${model}`;
  }).join('\n');
}

/** Whether `name` is a service `--provider` accepts. */
export function isProviderName(name: string): name is ProviderName {
  return (PROVIDER_NAMES as readonly string[]).includes(name);
}

/**
 * The model `--provider`, `--model` and `--base-url` choose; `undefined` without
 * `--provider`, when the app runs its offline script. `offlineRole` names what that script
 * plays (`the agent`, `the planner`), for the error when `--model` or `--base-url` come
 * without `--provider`.
 */
export function modelChoiceFromFlags(
  values: { provider?: string; model?: string; 'base-url'?: string; api?: string },
  offlineRole: string,
): ModelChoice | undefined {
  if (values.provider === undefined) {
    if (values.model !== undefined || values['base-url'] !== undefined)
      throw new CliError(
        `--model and --base-url need --provider (without it ${offlineRole} is the offline script).`,
      );
    if (values.api !== undefined)
      throw new CliError(
        `--api needs --provider (without it ${offlineRole} is the offline script).`,
      );
    return undefined;
  }
  if (!isProviderName(values.provider))
    throw new CliError(
      `Unknown --provider "${values.provider}". Use one of: ${PROVIDER_NAMES.join(', ')}.`,
    );
  if (values.api !== undefined && values.api !== 'chat' && values.api !== 'responses')
    throw new CliError(`Unknown --api "${values.api}". Use chat or responses.`);
  if (values.api !== undefined && values.provider === 'anthropic')
    throw new CliError(
      '--api is for OpenAI-compatible providers: anthropic speaks its Messages API.',
    );
  return {
    provider: values.provider,
    model: values.model,
    baseUrl: values['base-url'] && httpUrlFlag('--base-url', values['base-url']),
    ...(values.api === undefined ? {} : { api: values.api }),
  };
}

/**
 * Builds the provider `--provider` names with `createProvider` of `@mtpx/providers`,
 * reading its key from the usual variable (`OPENAI_API_KEY`, `ANTHROPIC_API_KEY`,
 * `GROQ_API_KEY`, …). The SDK of the chosen service is loaded only then, so offline runs
 * never load one. A missing key or model is a {@link CliError} with one line saying what
 * to set. A failure to reach the API names the base URL it used.
 */
export async function createModelProvider(
  choice: ModelChoice,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ModelProvider> {
  const model = choice.model ?? DEFAULT_MODELS[choice.provider];
  if (model === undefined)
    throw new CliError(
      `--provider ${choice.provider} needs --model: the name of the model your server has loaded.`,
    );
  try {
    const provider = await createProvider({
      provider: choice.provider,
      model,
      env,
      baseURL: choice.baseUrl || undefined,
      api: choice.api,
    });
    const { baseURL, baseURLVariable } = describeProvider(choice.provider);
    const baseUrl = choice.baseUrl || env[baseURLVariable]?.trim() || baseURL;
    return {
      provider: namingBaseUrl(provider, baseUrl),
      label: `${choice.provider} ${model}`,
      baseUrl,
    };
  } catch (error) {
    if (ProviderError.isInstance(error) && error.code === 'missing_api_key')
      throw new CliError(
        `--provider ${choice.provider} needs an API key: set the ${error.apiKeyVariable} environment variable.`,
      );
    throw error;
  }
}
