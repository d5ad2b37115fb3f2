// What sibling packages and this package's adapters share but users should not need:
// each symbol is tagged `@internal` where it is declared. Loads no SDK.
export {
  ANTHROPIC_API_KEY_VARIABLE,
  ANTHROPIC_BASE_URL_VARIABLE,
} from './anthropic/anthropic-connection';
export { isRetryableStatus } from './provider-error';
export { ANTHROPIC_STRICT_LIMITS } from './strict-schemas/anthropic-strict-schema';
export { closeObjectSchemas } from './strict-schemas/close-object-schemas';
export {
  dropNullOptionals,
  type NullableOptionals,
  type OpenAIStrictParameters,
  openAIStrictParameters,
} from './strict-schemas/openai-strict-parameters';
export { OPENAI_STRICT_LIMITS } from './strict-schemas/openai-strict-schema';
export {
  assistantToolCall,
  assistantToolCallFromValue,
  type ParsedToolArguments,
  parseToolArguments,
} from './tool-arguments';
export { PROVIDER_TOOL_NAME_MAX_LENGTH, PROVIDER_TOOL_NAME_PATTERN } from './tool-names';
