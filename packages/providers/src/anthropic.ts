export {
  ANTHROPIC_API_KEY_VARIABLE,
  ANTHROPIC_BASE_URL_VARIABLE,
} from './anthropic/anthropic-connection';
export {
  type AnthropicEffort,
  type AnthropicProvider,
  type AnthropicProviderOptions,
  type AnthropicThinkingOptions,
  createAnthropicProvider,
  DEFAULT_ANTHROPIC_MAX_TOKENS,
} from './anthropic/anthropic-provider';
