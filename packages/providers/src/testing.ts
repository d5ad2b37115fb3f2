export {
  type AnthropicWireOptions,
  anthropicMessage,
  anthropicMessageEvents,
} from './testing/anthropic-wire';
export {
  type JsonResponseScript,
  type ModelServer,
  type ModelServerOptions,
  type RecordedRequest,
  type ResponseScript,
  type SseEvent,
  type SseResponseScript,
  startModelServer,
} from './testing/model-server';
export {
  type OpenAIResponseWireOptions,
  openAIResponse,
  openAIResponseEvents,
} from './testing/openai-responses-wire';
export {
  type OpenAIStreamWireOptions,
  type OpenAIWireOptions,
  openAIChatCompletion,
  openAIChatCompletionChunks,
} from './testing/openai-wire';
export {
  type Script,
  type ScriptedProvider,
  type ScriptedProviderOptions,
  scriptedProvider,
} from './testing/scripted-provider';
export {
  type ScriptedServerOptions,
  startScriptedAnthropicServer,
  startScriptedOpenAIServer,
} from './testing/scripted-servers';
export type { ScriptedToolCall, ScriptedTurn } from './testing/scripted-turn';
