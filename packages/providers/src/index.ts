export {
  type CreateProviderOptions,
  createProvider,
  describeProvider,
  isProviderName,
  type ProviderDescription,
  type ProviderName,
  providerNames,
} from './create-provider';
export {
  isRetryableStatus,
  ProviderError,
  type ProviderErrorCode,
  type ProviderErrorOptions,
} from './provider-error';
export {
  ANTHROPIC_STRICT_LIMITS,
  type AnthropicStrictCost,
  anthropicStrictSchemaIssues,
  closeObjectSchemas,
  dropNullOptionals,
  type NullableOptionals,
  OPENAI_STRICT_LIMITS,
  type OpenAIStrictParameters,
  openAIStrictParameters,
  openAIStrictSchemaIssues,
} from './strict-schemas';
export {
  assistantToolCall,
  assistantToolCallFromValue,
  type ParsedToolArguments,
  parseToolArguments,
} from './tool-arguments';
export {
  type IncompleteToolCall,
  type ReadinessRule,
  ToolCallAccumulator,
  type ToolCallAccumulatorOptions,
  type ToolCallFragment,
} from './tool-call-accumulator';
export {
  createToolNameMapping,
  PROVIDER_TOOL_NAME_MAX_LENGTH,
  PROVIDER_TOOL_NAME_PATTERN,
  sanitizeToolName,
  type ToolNameMapping,
} from './tool-names';
export { VERSION } from './version';
