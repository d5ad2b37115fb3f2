import type { LanguageModelV3CallOptions, LanguageModelV3ProviderTool } from '@ai-sdk/provider';
import type { Provider, ProviderEvent, ProviderRequest, ProviderTurn } from '@mtpx/protocol';
import { createToolNameMapping, ProviderError } from '@mtpx/providers';
import type { AiSdkCallSettings, AiSdkLanguageModel, StreamPart } from './language-model';
import { providerErrorFromAiSdk } from './model-errors';
import { functionTools, promptFromMessages } from './prompt';
import { AiSdkStreamAssembler } from './stream-assembler';

/** How {@link fromLanguageModel} drives the model. */
export interface FromLanguageModelOptions {
  /**
   * True when the model constrains tool-call arguments to each tool's schema (OpenAI
   * strict function tools, Anthropic strict tools): every function tool is sent with
   * `strict: true`, and the agent offers schemas that also accept `{"$ref": …}`. Default
   * false: the tools' own schemas, the `$ref` rule carried by the instructions.
   */
  strictTools?: boolean;
  /**
   * Settings passed to every `doStream` call unchanged: `maxOutputTokens`, `temperature`,
   * `providerOptions` (reasoning effort, thinking budget, `store`, …), `headers`, `toolChoice`.
   */
  settings?: AiSdkCallSettings;
  /**
   * Tools the API runs itself, by name, offered on every call beside the agent's tools:
   * the AI SDK's provider tools as you pass them to `streamText`
   * (`{ web_search: anthropic.tools.webSearch_20250305() }`). Their calls are announced
   * (`server-tool-used`) and kept on the turn, never run here.
   */
  providerTools?: Record<string, { type: 'provider'; id: string; args?: unknown }>;
  /** The provider's name in events and errors; the model's `provider` by default. */
  name?: string;
}

/**
 * An MTPX {@link Provider} driven by any AI SDK language model: `openai('gpt-5')`,
 * `anthropic('claude-sonnet-4-5')`, `google('gemini-3-pro-preview')`,
 * `bedrock('us.anthropic.claude-…')`, or any community provider's model (specification
 * `v3`, AI SDK 6, or `v4`, AI SDK 7).
 *
 * Each request is one `doStream` call. Its parts become MTPX events as they arrive: each
 * complete `tool-call` part is a `tool-call-ready`, so the agent starts a call while the
 * model is still writing the next one. Provider-executed calls are the API's: announced
 * (`server-tool-used`), kept on the turn, never run here. Reasoning, and every
 * `providerMetadata` the model attached (OpenAI reasoning item ids and encrypted content,
 * Anthropic signatures, Gemini thought signatures, Bedrock reasoning), are kept opaque in
 * the turn's `provider_parts` and handed back unchanged, as `providerOptions`, on the next
 * call. Failures are {@link ProviderError}s with the API's status and retryability.
 *
 * @example
 * ```ts source="./from-language-model.examples.ts#fromLanguageModel"
 * const agent = createAgent({
 *   provider: fromLanguageModel(openai('gpt-5-mini')),
 *   tools: [calculatorToolkit()],
 * });
 * const output = await agent.run('What is 15 + (4 × (18 − 6)) / 3?');
 * ```
 */
export function fromLanguageModel(
  model: AiSdkLanguageModel,
  options: FromLanguageModelOptions = {},
): Provider {
  const name = options.name ?? model.provider;
  const strict = options.strictTools === true;
  const providerTools: LanguageModelV3ProviderTool[] = Object.entries(
    options.providerTools ?? {},
  ).map(([toolName, tool]) => ({
    type: 'provider',
    id: tool.id as `${string}.${string}`,
    name: toolName,
    args: (tool.args ?? {}) as Record<string, unknown>,
  }));

  async function* stream(request: ProviderRequest): AsyncGenerator<ProviderEvent, void, undefined> {
    const names = createToolNameMapping(request.tools.map((tool) => tool.name));
    const context = { provider: name, signal: request.signal };
    const assembler = new AiSdkStreamAssembler({
      ...context,
      service: model.provider,
      modelId: model.modelId,
      fromWireName: names.fromProvider,
    });
    const tools = [...functionTools(request.tools, names, strict), ...providerTools];
    let result: { stream: ReadableStream<unknown> };
    try {
      const callOptions: LanguageModelV3CallOptions = {
        ...options.settings,
        prompt: promptFromMessages(request.messages, model.provider, names),
        ...(tools.length > 0 ? { tools } : {}),
        ...(request.signal === undefined ? {} : { abortSignal: request.signal }),
      };
      result = await model.doStream(callOptions as never);
    } catch (error) {
      throw providerErrorFromAiSdk(error, context);
    }
    const reader = result.stream.getReader();
    try {
      for (;;) {
        let next: { done: boolean; value?: unknown };
        try {
          next = await reader.read();
        } catch (error) {
          throw interrupted(name, error, assembler, request.signal);
        }
        if (next.done) break;
        const part = next.value as StreamPart;
        if (part == null || typeof part.type !== 'string') continue;
        yield* assembler.push(part);
        if (assembler.finished) break;
      }
    } finally {
      reader.releaseLock();
    }
    if (!assembler.finished) {
      if (request.signal?.aborted) throw providerErrorFromAiSdk(request.signal.reason, context);
      throw interrupted(name, undefined, assembler, request.signal);
    }
  }

  return {
    name,
    model: model.modelId,
    ...(strict ? { strictTools: true } : {}),
    stream,
    async generate(request: ProviderRequest): Promise<ProviderTurn> {
      for await (const event of stream(request)) {
        if (event.type === 'finish') return event.turn;
      }
      throw interrupted(name, undefined, undefined, request.signal);
    },
  };
}

function interrupted(
  provider: string,
  cause: unknown,
  assembler: AiSdkStreamAssembler | undefined,
  signal: AbortSignal | undefined,
): ProviderError {
  if (signal?.aborted || ProviderError.isInstance(cause)) {
    return providerErrorFromAiSdk(cause ?? signal?.reason, { provider, signal });
  }
  const incomplete = assembler?.incomplete() ?? [];
  const reason =
    cause === undefined
      ? 'no finish part was received'
      : `the stream broke off: ${cause instanceof Error ? cause.message : String(cause)}`;
  return new ProviderError({
    code: 'stream_interrupted',
    provider,
    isRetryable: false,
    message: `${provider}: the response stream ended before the response was complete (${reason}).${
      incomplete.length === 0
        ? ''
        : ` Incomplete tool calls, not reported ready and not to be executed: ${incomplete.join('; ')}.`
    }`,
    ...(cause === undefined ? {} : { cause }),
  });
}
