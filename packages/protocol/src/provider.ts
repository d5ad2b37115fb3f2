import type { AssistantMessage, AssistantToolCall, Message } from './messages';
import type { ToolSpec } from './tool-spec';

/** Tokens a model call used. */
export interface Usage {
  /** Every input (prompt) token, cached ones included. */
  inputTokens: number;
  /** Every output token, reasoning tokens included. */
  outputTokens: number;
  totalTokens: number;
  /** Input tokens read from the provider's prompt cache, when it reports them (the same as `cacheReadTokens`). */
  cachedInputTokens?: number;
  /** Output tokens spent on hidden reasoning, when the provider reports them. */
  reasoningTokens?: number;
  /** Input tokens read from the prompt cache (Anthropic `cache_read_input_tokens`, OpenAI `cached_tokens`). */
  cacheReadTokens?: number;
  /** Input tokens written to the prompt cache (Anthropic `cache_creation_input_tokens`). */
  cacheWriteTokens?: number;
  /** Of `cacheWriteTokens`, those cached for 5 minutes (`ephemeral_5m_input_tokens`). */
  cacheWrite5mTokens?: number;
  /** Of `cacheWriteTokens`, those cached for 1 hour (`ephemeral_1h_input_tokens`). */
  cacheWrite1hTokens?: number;
  /** DeepSeek's `prompt_cache_hit_tokens`. */
  cacheHitTokens?: number;
  /** DeepSeek's `prompt_cache_miss_tokens`. */
  cacheMissTokens?: number;
}

/**
 * Why the model stopped. `refusal`: the model declined (OpenAI `message.refusal`,
 * Anthropic `stop_reason: "refusal"`); no tool of that turn may run. A reason the adapter
 * does not know is `other`, with the API's own value in {@link ProviderTurn.rawFinishReason}.
 */
export type FinishReason =
  | 'stop'
  | 'tool_calls'
  | 'length'
  | 'content_filter'
  | 'refusal'
  | 'error'
  | 'other';

/** One model call. */
export interface ProviderRequest {
  messages: readonly Message[];
  tools: readonly ToolSpec[];
  /**
   * Tools the model may find with the API's own tool search (only for a provider with
   * {@link Provider.nativeToolSearch}): sent with `defer_loading`, their schemas reach the
   * model only once its search finds them.
   */
  deferredTools?: readonly ToolSpec[];
  signal?: AbortSignal;
}

/** The model's complete answer to one request. */
export interface ProviderTurn {
  message: AssistantMessage;
  finishReason: FinishReason;
  usage?: Usage;
  /** The model that answered, as the API reports it. */
  model?: string;
  /** The API's id for this response (`chatcmpl-…`, `msg_…`), for tracing. */
  responseId?: string;
  /** For `finishReason: "other"`: the API's own finish or stop reason, unchanged (`pause_turn`, …). */
  rawFinishReason?: string;
  /** Readable reasoning of the turn, when the model showed any (never redacted or encrypted reasoning). */
  reasoning?: string;
  /** For a `refusal`: the model's refusal text or the API's explanation, when it gave one. */
  refusal?: string;
}

/**
 * What a streaming model call yields, in order. A stream either ends with `finish`, or
 * its iterator throws (a `ProviderError` from `@mtpx/providers`); a call that was not
 * reported ready before the throw must never be executed.
 */
export type ProviderEvent =
  /** A piece of the answer's text. */
  | { type: 'text-delta'; delta: string }
  /** A piece of readable reasoning (thinking), as it streams; never redacted or encrypted reasoning. */
  | { type: 'reasoning-delta'; delta: string }
  /** A server-side tool block began (the API runs it; it is never dispatched to a local tool). */
  | { type: 'server-tool-used'; blockType: string; id?: string; name?: string }
  /** A piece of one tool call, as it streams (`index` is the call's place in the turn). */
  | {
      type: 'tool-call-delta';
      index: number;
      callId?: string;
      toolName?: string;
      argumentsDelta: string;
    }
  /** One tool call is complete: its arguments will not change, so it may start. */
  | { type: 'tool-call-ready'; index: number; toolCall: AssistantToolCall }
  /** Token usage, when the API reports it. */
  | { type: 'usage'; usage: Usage }
  /** The end of the turn, with the whole turn assembled. Always the last event. */
  | { type: 'finish'; turn: ProviderTurn };

/**
 * A model behind a native tool-calling API. The agent talks to models only through
 * this interface; `@mtpx/providers` implements it for OpenAI-compatible and Anthropic APIs.
 */
export interface Provider {
  /** Which API (`openai`, `anthropic`, `scripted`). */
  readonly name: string;
  /** The model asked for. */
  readonly model: string;
  /**
   * True when the API constrains tool-call arguments to each tool's schema (OpenAI
   * `strict: true` function tools, Anthropic strict tools): a value the schema does not
   * allow cannot be written at all. The agent then offers schemas that also accept
   * `{"$ref": …}` wherever a value goes; otherwise it sends the tools' own schemas and
   * lets its instructions carry the rule. Absent means false.
   */
  readonly strictTools?: boolean;
  /**
   * True when the API searches deferred tools itself (Anthropic's tool search tool, the
   * Responses API's `tool_search`): the provider sends {@link ProviderRequest.deferredTools}
   * with `defer_loading` and its search. Absent means false.
   */
  readonly nativeToolSearch?: boolean;
  /** One model call, answered whole. */
  generate(request: ProviderRequest): Promise<ProviderTurn>;
  /** One model call, streamed; the last event is `finish`, or the iterator throws. */
  stream(request: ProviderRequest): AsyncIterable<ProviderEvent>;
}
