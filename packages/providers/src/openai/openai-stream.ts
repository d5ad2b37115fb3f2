import type { ProviderEvent, Usage } from '@mtpx/protocol';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { ProviderError } from '../provider-error';
import type { StreamAssembler } from '../provider-stream';
import { assistantContent, closingEvents, providerTurn } from '../provider-turn';
import { streamInterruptedError } from '../stream-interruption';
import { ToolCallAccumulator } from '../tool-call-accumulator';
import type { OpenAITurnContext } from './openai-response';
import { openAIFinishReason, openAIUsage } from './openai-response';

/**
 * Turns Chat Completions stream chunks into provider events. Text deltas pass through;
 * `delta.tool_calls` fragments are accumulated by index (interleaving allowed) and a call
 * is reported ready as soon as its arguments parse as a whole JSON object and a later
 * call has begun, or when `finish_reason` arrives. A stream that ends without a
 * `finish_reason` was cut off: {@link end} throws `stream_interrupted`, and the calls it
 * left incomplete are never reported ready.
 */
export class OpenAIStreamAssembler implements StreamAssembler<ChatCompletionChunk> {
  readonly #context: OpenAITurnContext;
  readonly #calls: ToolCallAccumulator;
  #text = '';
  #finishReason: string | undefined;
  #usage: Usage | undefined;
  #model: string | undefined;
  #responseId: string | undefined;

  constructor(context: OpenAITurnContext) {
    this.#context = context;
    this.#calls = new ToolCallAccumulator({
      provider: context.provider,
      readiness: 'next-call-or-end',
      mapName: context.names.fromProvider,
      createId: context.createId,
    });
  }

  /** The calls that began but are not complete, for an interruption message. */
  get incomplete() {
    return this.#calls.incomplete();
  }

  /** The events one chunk produces. Throws `invalid_stream` for a chunk that breaks the rules. */
  push(chunk: ChatCompletionChunk): ProviderEvent[] {
    if (typeof chunk.model === 'string' && chunk.model !== '') this.#model ??= chunk.model;
    if (typeof chunk.id === 'string' && chunk.id !== '') this.#responseId ??= chunk.id;
    const usage = openAIUsage(chunk.usage);
    if (usage !== undefined) this.#usage = usage;

    // The first choice only (n > 1 is not supported); a server that omits `index` has one.
    const choice =
      chunk.choices?.find((candidate) => candidate.index === 0) ??
      (chunk.choices?.[0]?.index == null ? chunk.choices?.[0] : undefined);
    if (choice == null) return [];
    const events: ProviderEvent[] = [];
    const delta = choice.delta ?? {};
    if (typeof delta.content === 'string' && delta.content !== '') {
      this.#text += delta.content;
      events.push({ type: 'text-delta', delta: delta.content });
    }
    const fragments = delta.tool_calls ?? [];
    if (fragments.length > 0 && this.#finishReason !== undefined) {
      throw new ProviderError({
        code: 'invalid_stream',
        provider: this.#context.provider,
        message: `${this.#context.provider}: invalid tool-call stream: tool-call fragments arrived after finish_reason "${this.#finishReason}".`,
      });
    }
    fragments.forEach((fragment, position) => {
      const argumentsDelta = fragment.function?.arguments;
      events.push(
        ...this.#calls.push({
          index: typeof fragment.index === 'number' ? fragment.index : position,
          id: typeof fragment.id === 'string' ? fragment.id : undefined,
          name: typeof fragment.function?.name === 'string' ? fragment.function.name : undefined,
          argumentsDelta: typeof argumentsDelta === 'string' ? argumentsDelta : undefined,
        }),
      );
    });
    if (choice.finish_reason != null && this.#finishReason === undefined) {
      this.#finishReason = choice.finish_reason;
      events.push(...this.#calls.completeAll());
    }
    return events;
  }

  /** The closing events once the chunks have run out: `usage` (when reported) and `finish`. */
  end(): ProviderEvent[] {
    if (this.#finishReason === undefined) {
      throw streamInterruptedError({
        provider: this.#context.provider,
        reason: 'no finish_reason was received',
        incomplete: this.#calls.incomplete(),
      });
    }
    const toolCalls = this.#calls.toolCalls();
    return closingEvents(
      providerTurn({
        content: assistantContent(this.#text, toolCalls),
        toolCalls,
        finishReason: openAIFinishReason(this.#finishReason, toolCalls.length > 0),
        usage: this.#usage,
        model: this.#model,
        responseId: this.#responseId,
      }),
    );
  }
}
