export {
  type CreateProviderOptions,
  createProvider,
  describeProvider,
  isProviderName,
  type ProviderDescription,
  type ProviderName,
  providerNames,
} from './create-provider';
export type { Environment } from './environment';
export { ProviderError, type ProviderErrorCode, type ProviderErrorOptions } from './provider-error';
export {
  type AnthropicStrictCost,
  anthropicStrictSchemaIssues,
} from './strict-schemas/anthropic-strict-schema';
export { openAIStrictSchemaIssues } from './strict-schemas/openai-strict-schema';
export {
  type IncompleteToolCall,
  type ReadinessRule,
  ToolCallAccumulator,
  type ToolCallAccumulatorOptions,
  type ToolCallFragment,
} from './tool-call-accumulator';
export { createToolNameMapping, sanitizeToolName, type ToolNameMapping } from './tool-names';
export { VERSION } from './version';
