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
  type OpenAIReasoningEffort,
} from './openai/openai-provider';
