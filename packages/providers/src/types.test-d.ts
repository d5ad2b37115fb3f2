import type { Provider } from '@mtpx/protocol';
import { expectTypeOf, test } from 'vitest';
import type { AnthropicProvider } from './anthropic/anthropic-provider';
import type { OpenAICompatiblePresetName } from './openai/openai-presets';
import type { OpenAIProvider, OpenAIProviderOptions } from './openai/openai-provider';
import type { ProviderError, ProviderErrorCode } from './provider-error';
import type { ScriptedProvider } from './testing/scripted-provider';

test('every adapter is a Provider', () => {
  expectTypeOf<OpenAIProvider>().toExtend<Provider>();
  expectTypeOf<AnthropicProvider>().toExtend<Provider>();
  expectTypeOf<ScriptedProvider>().toExtend<Provider>();
});

test('presets are a closed set of names', () => {
  expectTypeOf<'groq'>().toExtend<OpenAICompatiblePresetName>();
  expectTypeOf<'mimo'>().toExtend<OpenAICompatiblePresetName>();
  expectTypeOf<'nope'>().not.toExtend<OpenAICompatiblePresetName>();
  expectTypeOf<OpenAIProviderOptions['preset']>().toEqualTypeOf<
    OpenAICompatiblePresetName | undefined
  >();
});

test('errors carry a typed code and retryability', () => {
  expectTypeOf<ProviderError['code']>().toEqualTypeOf<ProviderErrorCode>();
  expectTypeOf<ProviderError['isRetryable']>().toEqualTypeOf<boolean>();
  expectTypeOf<ProviderError['status']>().toEqualTypeOf<number | undefined>();
});
