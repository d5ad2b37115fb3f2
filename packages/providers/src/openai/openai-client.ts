import OpenAI, { type ClientOptions } from 'openai';
import type { Environment } from '../environment';
import {
  isOpenAICompatiblePresetName,
  type OpenAICompatiblePresetName,
  resolveOpenAICompatiblePreset,
} from './openai-presets';
/** What building an `openai` client reads of an adapter's options (documented on `OpenAIProviderOptions`). */
export interface OpenAIClientOptions {
  client?: OpenAI | undefined;
  preset?: OpenAICompatiblePresetName | undefined;
  apiKey?: string | undefined;
  baseURL?: string | undefined;
  env?: Environment | undefined;
  maxRetries?: number | undefined;
  timeoutMs?: number | undefined;
  clientOptions?: Omit<ClientOptions, 'apiKey' | 'baseURL'> | undefined;
}

/**
 * The preset an adapter serves (`openai` when left out) and the client it sends with: the
 * caller's own `client` as it is, else one built from the preset's key and URL (an unknown
 * preset is reported with the list of known ones).
 */
export function openAIConnection(options: OpenAIClientOptions): {
  preset: OpenAICompatiblePresetName;
  client: OpenAI;
} {
  const preset = options.preset ?? 'openai';
  if (!isOpenAICompatiblePresetName(preset)) {
    resolveOpenAICompatiblePreset({ preset, apiKey: 'unused' });
  }
  return { preset, client: buildClient(options) };
}

function buildClient(options: OpenAIClientOptions): OpenAI {
  if (options.client) return options.client;
  const resolved = resolveOpenAICompatiblePreset({
    preset: options.preset,
    apiKey: options.apiKey,
    baseURL: options.baseURL,
    env: options.env,
  });
  return new OpenAI({
    ...options.clientOptions,
    apiKey: resolved.apiKey,
    baseURL: resolved.baseURL,
    ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
    ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }),
  });
}
