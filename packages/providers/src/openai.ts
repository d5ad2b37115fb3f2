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
export {
  createOpenAIResponsesProvider,
  type OpenAIReasoningSummary,
  type OpenAIResponsesProvider,
  type OpenAIResponsesProviderOptions,
} from './openai-responses/responses-provider';
