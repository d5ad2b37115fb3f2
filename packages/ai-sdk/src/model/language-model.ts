import type { LanguageModelV3CallOptions, SharedV3ProviderMetadata } from '@ai-sdk/provider';

/**
 * An AI SDK language model, as far as MTPX drives it: specification `v3` (AI SDK 6,
 * `LanguageModelV3`) or `v4` (AI SDK 7, `LanguageModelV4`). Only `doStream` is called;
 * its parts are read by their `type`, so the parts a later specification adds are passed
 * over rather than refused.
 */
export interface AiSdkLanguageModel {
  readonly specificationVersion: 'v3' | 'v4';
  /** The provider's id (`openai.responses`, `anthropic.messages`, `google.generative-ai`, `amazon-bedrock`). */
  readonly provider: string;
  readonly modelId: string;
  /**
   * Typed loosely (`never`) so both specifications' models fit: `fromLanguageModel` sends
   * a `LanguageModelV3CallOptions`, whose text and tool parts `v4` reads the same.
   */
  doStream(options: never): PromiseLike<{ stream: ReadableStream<unknown> }>;
}

/** The call settings `fromLanguageModel` passes through to every `doStream` call. */
export type AiSdkCallSettings = Omit<
  LanguageModelV3CallOptions,
  'prompt' | 'tools' | 'abortSignal' | 'includeRawChunks'
>;

/** One stream part, read loosely: the union of the v3 and v4 parts MTPX reads. */
export interface StreamPart {
  type: string;
  id?: string;
  delta?: string;
  toolName?: string;
  toolCallId?: string;
  input?: unknown;
  providerExecuted?: boolean;
  providerMetadata?: SharedV3ProviderMetadata;
  finishReason?: { unified?: string; raw?: string | undefined } | string;
  usage?: unknown;
  modelId?: string;
  error?: unknown;
  [key: string]: unknown;
}
