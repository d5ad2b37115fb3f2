export {
  type OpenAICompatiblePreset,
  type OpenAICompatiblePresetName,
  openAICompatiblePresets,
  type ResolvedPreset,
  type ResolvePresetOptions,
  resolveOpenAICompatiblePreset,
} from './openai/openai-presets';
export {
  createOpenAIProvider,
  type OpenAIProvider,
  type OpenAIProviderOptions,
} from './openai/openai-provider';
