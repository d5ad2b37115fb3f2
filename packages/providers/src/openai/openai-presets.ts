import { type Environment, environmentValue } from '../environment';
import { ProviderError } from '../provider-error';

/** Where an OpenAI-compatible API lives and where its key comes from. */
export interface OpenAICompatiblePreset {
  /** The service's name, for messages. */
  readonly label: string;
  /** The Chat Completions base URL (the SDK appends `/chat/completions`). */
  readonly baseURL: string;
  /** The environment variable that overrides `baseURL`. */
  readonly baseURLVariable: string;
  /** The environment variable that holds the API key. */
  readonly apiKeyVariable: string;
  /**
   * True for hosted services. Local servers (Ollama, LM Studio, vLLM) need no key: a
   * placeholder is sent when the variable is unset.
   */
  readonly apiKeyRequired: boolean;
}

/**
 * The OpenAI-compatible services MTPX knows by name. Every one speaks Chat Completions
 * with native `tool_calls`; pick one with `createOpenAIProvider({ preset, model })`.
 */
export const openAICompatiblePresets = {
  openai: {
    label: 'OpenAI',
    baseURL: 'https://api.openai.com/v1',
    baseURLVariable: 'OPENAI_BASE_URL',
    apiKeyVariable: 'OPENAI_API_KEY',
    apiKeyRequired: true,
  },
  groq: {
    label: 'Groq',
    baseURL: 'https://api.groq.com/openai/v1',
    baseURLVariable: 'GROQ_BASE_URL',
    apiKeyVariable: 'GROQ_API_KEY',
    apiKeyRequired: true,
  },
  together: {
    label: 'Together AI',
    baseURL: 'https://api.together.xyz/v1',
    baseURLVariable: 'TOGETHER_BASE_URL',
    apiKeyVariable: 'TOGETHER_API_KEY',
    apiKeyRequired: true,
  },
  fireworks: {
    label: 'Fireworks AI',
    baseURL: 'https://api.fireworks.ai/inference/v1',
    baseURLVariable: 'FIREWORKS_BASE_URL',
    apiKeyVariable: 'FIREWORKS_API_KEY',
    apiKeyRequired: true,
  },
  cerebras: {
    label: 'Cerebras',
    baseURL: 'https://api.cerebras.ai/v1',
    baseURLVariable: 'CEREBRAS_BASE_URL',
    apiKeyVariable: 'CEREBRAS_API_KEY',
    apiKeyRequired: true,
  },
  deepseek: {
    label: 'DeepSeek',
    baseURL: 'https://api.deepseek.com/v1',
    baseURLVariable: 'DEEPSEEK_BASE_URL',
    apiKeyVariable: 'DEEPSEEK_API_KEY',
    apiKeyRequired: true,
  },
  gemini: {
    label: 'Gemini',
    baseURL: 'https://generativelanguage.googleapis.com/v1beta/openai',
    baseURLVariable: 'GEMINI_BASE_URL',
    apiKeyVariable: 'GEMINI_API_KEY',
    apiKeyRequired: true,
  },
  mistral: {
    label: 'Mistral',
    baseURL: 'https://api.mistral.ai/v1',
    baseURLVariable: 'MISTRAL_BASE_URL',
    apiKeyVariable: 'MISTRAL_API_KEY',
    apiKeyRequired: true,
  },
  openrouter: {
    label: 'OpenRouter',
    baseURL: 'https://openrouter.ai/api/v1',
    baseURLVariable: 'OPENROUTER_BASE_URL',
    apiKeyVariable: 'OPENROUTER_API_KEY',
    apiKeyRequired: true,
  },
  sambanova: {
    label: 'SambaNova',
    baseURL: 'https://api.sambanova.ai/v1',
    baseURLVariable: 'SAMBANOVA_BASE_URL',
    apiKeyVariable: 'SAMBANOVA_API_KEY',
    apiKeyRequired: true,
  },
  mimo: {
    label: 'Xiaomi MiMo',
    baseURL: 'https://api.xiaomimimo.com/v1',
    baseURLVariable: 'MIMO_BASE_URL',
    apiKeyVariable: 'MIMO_API_KEY',
    apiKeyRequired: true,
  },
  ollama: {
    label: 'Ollama',
    baseURL: 'http://localhost:11434/v1',
    baseURLVariable: 'OLLAMA_BASE_URL',
    apiKeyVariable: 'OLLAMA_API_KEY',
    apiKeyRequired: false,
  },
  lmstudio: {
    label: 'LM Studio',
    baseURL: 'http://localhost:1234/v1',
    baseURLVariable: 'LMSTUDIO_BASE_URL',
    apiKeyVariable: 'LMSTUDIO_API_KEY',
    apiKeyRequired: false,
  },
  vllm: {
    label: 'vLLM',
    baseURL: 'http://localhost:8000/v1',
    baseURLVariable: 'VLLM_BASE_URL',
    apiKeyVariable: 'VLLM_API_KEY',
    apiKeyRequired: false,
  },
} as const satisfies Record<string, OpenAICompatiblePreset>;

/** The name of a known OpenAI-compatible service. */
export type OpenAICompatiblePresetName = keyof typeof openAICompatiblePresets;

/** The key sent to local servers that need none (the SDK refuses an empty key). */
const LOCAL_PLACEHOLDER_KEY = 'not-needed';

/** Where a preset's connection settings come from. */
export interface ResolvePresetOptions {
  preset?: OpenAICompatiblePresetName | undefined;
  /** Wins over the preset's key variable. */
  apiKey?: string | undefined;
  /** Wins over the preset's base URL and its variable. */
  baseURL?: string | undefined;
  /** The environment to read; `process.env` when left out. */
  env?: Environment | undefined;
}

/** The connection settings a preset resolves to. */
export interface ResolvedPreset {
  preset: OpenAICompatiblePresetName;
  label: string;
  baseURL: string;
  apiKey: string;
}

/** Whether `name` is a known OpenAI-compatible preset. */
export function isOpenAICompatiblePresetName(name: string): name is OpenAICompatiblePresetName {
  return Object.hasOwn(openAICompatiblePresets, name);
}

/**
 * Resolves a preset's base URL and API key from the options and the environment.
 * Throws a {@link ProviderError} with code `missing_api_key` (and `apiKeyVariable`) when
 * a hosted service has no key, with a one-line message naming the variable to set.
 *
 * @example
 * ```ts source="./openai-presets.examples.ts#resolveOpenAICompatiblePreset"
 * const { baseURL, apiKey } = resolveOpenAICompatiblePreset({ preset: 'groq' });
 * // throws "Groq needs an API key: set the GROQ_API_KEY environment variable (or pass apiKey)." when unset
 * ```
 */
export function resolveOpenAICompatiblePreset(options: ResolvePresetOptions = {}): ResolvedPreset {
  const name = options.preset ?? 'openai';
  if (!isOpenAICompatiblePresetName(name)) {
    throw new ProviderError({
      code: 'invalid_options',
      provider: String(name),
      message: `Unknown OpenAI-compatible preset "${String(name)}". Known presets: ${Object.keys(openAICompatiblePresets).join(', ')}.`,
    });
  }
  const preset: OpenAICompatiblePreset = openAICompatiblePresets[name];
  const env = options.env ?? process.env;
  const baseURL =
    options.baseURL ?? environmentValue(env, preset.baseURLVariable) ?? preset.baseURL;
  const apiKey = options.apiKey ?? environmentValue(env, preset.apiKeyVariable);
  if (apiKey === undefined && preset.apiKeyRequired) {
    throw new ProviderError({
      code: 'missing_api_key',
      provider: name,
      apiKeyVariable: preset.apiKeyVariable,
      message: `${preset.label} needs an API key: set the ${preset.apiKeyVariable} environment variable (or pass apiKey).`,
    });
  }
  return { preset: name, label: preset.label, baseURL, apiKey: apiKey ?? LOCAL_PLACEHOLDER_KEY };
}
