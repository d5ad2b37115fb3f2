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
export { VERSION } from './version';
