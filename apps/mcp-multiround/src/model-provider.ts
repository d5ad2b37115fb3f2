import type { Provider } from '@mtpx/protocol';
import { ProviderError } from '@mtpx/providers';
import { CliError } from './cli-error';

/** The services `--provider` accepts. */
export const PROVIDER_NAMES = [
  'openai',
  'anthropic',
  'groq',
  'together',
  'cerebras',
  'mimo',
  'openrouter',
  'ollama',
  'lmstudio',
  'vllm',
] as const;

/** One of {@link PROVIDER_NAMES}. */
export type ProviderName = (typeof PROVIDER_NAMES)[number];

/** The model used when `--model` is left out; local servers serve what you loaded, so they need one. */
const DEFAULT_MODELS: Partial<Record<ProviderName, string>> = {
  openai: 'gpt-4.1-mini',
  anthropic: 'claude-sonnet-4-5',
  groq: 'llama-3.3-70b-versatile',
  together: 'meta-llama/Llama-3.3-70B-Instruct-Turbo',
  cerebras: 'llama-3.3-70b',
  mimo: 'mimo-v2-flash',
  openrouter: 'openai/gpt-4.1-mini',
  ollama: 'llama3.1',
};

/** What `--provider`, `--model` and `--base-url` asked for. */
export interface ModelChoice {
  provider: ProviderName;
  model?: string | undefined;
  baseUrl?: string | undefined;
}

/** A real model, ready to call, and how to name it in output. */
export interface ModelProvider {
  provider: Provider;
  /** `groq llama-3.3-70b-versatile` */
  label: string;
}

/** Whether `name` is a service `--provider` accepts. */
export function isProviderName(name: string): name is ProviderName {
  return (PROVIDER_NAMES as readonly string[]).includes(name);
}

/**
 * Builds the provider `--provider` names, reading its key from the usual variable
 * (`OPENAI_API_KEY`, `ANTHROPIC_API_KEY`, `GROQ_API_KEY`, …). The SDK of the chosen
 * service is loaded only then, so offline runs never load one. A missing key or model
 * is a {@link CliError} with one line saying what to set.
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
    if (choice.provider === 'anthropic') {
      const { createAnthropicProvider } = await import('@mtpx/providers/anthropic');
      const provider = createAnthropicProvider({
        model,
        env,
        ...(choice.baseUrl ? { baseURL: choice.baseUrl } : {}),
      });
      return { provider, label: `anthropic ${model}` };
    }
    const { createOpenAIProvider } = await import('@mtpx/providers/openai');
    const provider = createOpenAIProvider({
      model,
      preset: choice.provider,
      env,
      ...(choice.baseUrl ? { baseURL: choice.baseUrl } : {}),
    });
    return { provider, label: `${choice.provider} ${model}` };
  } catch (error) {
    if (ProviderError.isInstance(error) && error.code === 'missing_api_key')
      throw new CliError(
        `--provider ${choice.provider} needs an API key: set the ${error.apiKeyVariable} environment variable.`,
      );
    throw error;
  }
}
