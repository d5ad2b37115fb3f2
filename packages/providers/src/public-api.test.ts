import { expect, it } from 'vitest';
import { exportedNames } from '../../../scripts/api/exported-names.mjs';

it('. exports exactly its public surface (a change here is a reviewed API change)', () => {
  expect(exportedNames(new URL('./index.ts', import.meta.url))).toEqual([
    'type AnthropicStrictCost',
    'anthropicStrictSchemaIssues',
    'createProvider',
    'type CreateProviderOptions',
    'createToolNameMapping',
    'describeProvider',
    'type Environment',
    'type IncompleteToolCall',
    'isProviderName',
    'openAIStrictSchemaIssues',
    'type ProviderDescription',
    'ProviderError',
    'type ProviderErrorCode',
    'type ProviderErrorOptions',
    'type ProviderName',
    'providerNames',
    'type ReadinessRule',
    'sanitizeToolName',
    'ToolCallAccumulator',
    'type ToolCallAccumulatorOptions',
    'type ToolCallFragment',
    'type ToolNameMapping',
    'VERSION',
  ]);
});

it('./openai exports exactly its public surface (a change here is a reviewed API change)', () => {
  expect(exportedNames(new URL('./openai.ts', import.meta.url))).toEqual([
    'createOpenAIProvider',
    'createOpenAIResponsesProvider',
    'type OpenAICompatiblePreset',
    'type OpenAICompatiblePresetName',
    'openAICompatiblePresets',
    'type OpenAIProvider',
    'type OpenAIProviderOptions',
    'type OpenAIReasoningEffort',
    'type OpenAIReasoningSummary',
    'type OpenAIResponsesProvider',
    'type OpenAIResponsesProviderOptions',
    'type ResolvedPreset',
    'resolveOpenAICompatiblePreset',
    'type ResolvePresetOptions',
  ]);
});

it('./anthropic exports exactly its public surface (a change here is a reviewed API change)', () => {
  expect(exportedNames(new URL('./anthropic.ts', import.meta.url))).toEqual([
    'type AnthropicEffort',
    'type AnthropicProvider',
    'type AnthropicProviderOptions',
    'type AnthropicThinkingOptions',
    'type AnthropicToolSearch',
    'createAnthropicProvider',
    'DEFAULT_ANTHROPIC_MAX_TOKENS',
  ]);
});

it('./testing exports exactly its public surface (a change here is a reviewed API change)', () => {
  expect(exportedNames(new URL('./testing.ts', import.meta.url))).toEqual([
    'anthropicMessage',
    'anthropicMessageEvents',
    'type AnthropicWireOptions',
    'type JsonResponseScript',
    'type ModelServer',
    'type ModelServerOptions',
    'openAIChatCompletion',
    'openAIChatCompletionChunks',
    'openAIResponse',
    'openAIResponseEvents',
    'type OpenAIResponseWireOptions',
    'type OpenAIStreamWireOptions',
    'type OpenAIWireOptions',
    'type RecordedRequest',
    'type ResponseScript',
    'type Script',
    'scriptedProvider',
    'type ScriptedProvider',
    'type ScriptedProviderOptions',
    'type ScriptedServerOptions',
    'type ScriptedToolCall',
    'type ScriptedTurn',
    'type SseEvent',
    'type SseResponseScript',
    'startModelServer',
    'startScriptedAnthropicServer',
    'startScriptedOpenAIServer',
  ]);
});

it('./internal exports exactly its public surface (a change here is a reviewed API change)', () => {
  expect(exportedNames(new URL('./internal.ts', import.meta.url))).toEqual([
    'ANTHROPIC_API_KEY_VARIABLE',
    'ANTHROPIC_BASE_URL_VARIABLE',
    'ANTHROPIC_STRICT_LIMITS',
    'assistantToolCall',
    'assistantToolCallFromValue',
    'closeObjectSchemas',
    'dropNullOptionals',
    'isRetryableStatus',
    'type NullableOptionals',
    'OPENAI_STRICT_LIMITS',
    'openAIStrictParameters',
    'type OpenAIStrictParameters',
    'type ParsedToolArguments',
    'parseToolArguments',
    'PROVIDER_TOOL_NAME_MAX_LENGTH',
    'PROVIDER_TOOL_NAME_PATTERN',
  ]);
});
