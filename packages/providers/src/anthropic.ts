export {
  type AnthropicEffort,
  type AnthropicProvider,
  type AnthropicProviderOptions,
  type AnthropicThinkingOptions,
  createAnthropicProvider,
  DEFAULT_ANTHROPIC_MAX_TOKENS,
} from './anthropic/anthropic-provider';
export type { AnthropicToolSearch } from './anthropic/anthropic-tool-search';
