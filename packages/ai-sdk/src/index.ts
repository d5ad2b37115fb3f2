/**
 * `@mtpx/ai-sdk`: bring a Vercel AI SDK app to MTPX — its models, its tools and its chat UI.
 * @packageDocumentation
 */

export {
  type FromLanguageModelOptions,
  fromLanguageModel,
} from './model/from-language-model';
export type { AiSdkCallSettings, AiSdkLanguageModel } from './model/language-model';
export {
  type AiSdkToolSettings,
  type AiSdkTools,
  type AiSdkToolWithoutExecute,
  type FromAiSdkToolsOptions,
  fromAiSdkTools,
} from './tools/from-ai-sdk-tools';
export { PRELIMINARY_OUTPUT_MESSAGE } from './tools/run-ai-sdk-tool';
export type {
  MtpxCallData,
  MtpxDataTypes,
  MtpxEdgeData,
  MtpxRunData,
  MtpxUIMessage,
} from './ui/mtpx-data-parts';
export {
  type ToUIMessageStreamOptions,
  type ToUIMessageStreamResponseOptions,
  toUIMessageStream,
  toUIMessageStreamResponse,
} from './ui/to-ui-message-stream';
export type { MtpxUIMessageChunk, UIChunkWriterOptions } from './ui/ui-chunk-writer';
export { VERSION } from './version';
