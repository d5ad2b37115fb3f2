export {
  type AnthropicEffort,
  type AnthropicProvider,
  type AnthropicProviderOptions,
  type AnthropicThinkingOptions,
  createAnthropicProvider,
  DEFAULT_ANTHROPIC_MAX_TOKENS,
} from './anthropic/anthropic-provider';
