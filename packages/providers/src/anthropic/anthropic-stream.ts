import type Anthropic from '@anthropic-ai/sdk';
import type { ProviderEvent } from '@mtpx/protocol';
import { ProviderError } from '../provider-error';
import type { StreamAssembler } from '../provider-stream';
import { assistantContent, closingEvents, providerTurn } from '../provider-turn';
import { streamInterruptedError } from '../stream-interruption';
import { ToolCallAccumulator } from '../tool-call-accumulator';
import {
  type AnthropicTurnContext,
  type AnthropicUsageCounters,
  anthropicFinishReason,
  anthropicUsage,
} from './anthropic-response';

/**
 * Turns Messages API stream events into provider events. Text deltas pass through;
 * each `tool_use` block's `input_json_delta` pieces are accumulated, and the call is
 * reported ready at the block's `content_block_stop`. A stream that ends without
 * `message_stop` was cut off: {@link end} throws `stream_interrupted`, and blocks left
 * open are never reported ready. A delta for a closed or unknown block throws
 * `invalid_stream`.
 */
export class AnthropicStreamAssembler implements StreamAssembler<Anthropic.RawMessageStreamEvent> {
  readonly #context: AnthropicTurnContext;
  readonly #calls: ToolCallAccumulator;
  /** Content block index → its type, for the blocks that have started. */
  readonly #blocks = new Map<number, string>();
  #text = '';
  #stopReason: string | null | undefined;
  #usage: AnthropicUsageCounters = {};
  #model: string | undefined;
  #responseId: string | undefined;
  #stopped = false;

  constructor(context: AnthropicTurnContext) {
    this.#context = context;
    this.#calls = new ToolCallAccumulator({
      provider: context.provider,
      readiness: 'explicit',
      mapName: context.names.fromProvider,
    });
  }

  /** The calls that began but are not complete, for an interruption message. */
  get incomplete() {
    return this.#calls.incomplete();
  }

  /** The events one stream event produces. */
  push(event: Anthropic.RawMessageStreamEvent): ProviderEvent[] {
    switch (event.type) {
      case 'message_start':
        this.#model = event.message.model;
        this.#responseId = event.message.id;
        this.#mergeUsage(event.message.usage);
        return [];
      case 'content_block_start':
        return this.#startBlock(event);
      case 'content_block_delta':
        return this.#delta(event);
      case 'content_block_stop':
        return this.#calls.complete(event.index);
      case 'message_delta':
        this.#stopReason = event.delta.stop_reason;
        this.#mergeUsage(event.usage);
        return [];
      case 'message_stop':
        this.#stopped = true;
        return this.#calls.completeAll();
      default:
        return [];
    }
  }

  /** The closing events once the stream has run out: `usage` and `finish`. */
  end(): ProviderEvent[] {
    if (!this.#stopped) {
      throw streamInterruptedError({
        provider: this.#context.provider,
        reason: 'no message_stop event was received',
        incomplete: this.#calls.incomplete(),
      });
    }
    const toolCalls = this.#calls.toolCalls();
    return closingEvents(
      providerTurn({
        content: assistantContent(this.#text, toolCalls),
        toolCalls,
        finishReason: anthropicFinishReason(this.#stopReason),
        usage: anthropicUsage(this.#usage),
        model: this.#model,
        responseId: this.#responseId,
      }),
    );
  }

  #startBlock(event: Anthropic.RawContentBlockStartEvent): ProviderEvent[] {
    const block = event.content_block;
    this.#blocks.set(event.index, block.type);
    if (block.type === 'text') return this.#appendText(block.text);
    if (block.type !== 'tool_use') return [];
    // The API streams the input as deltas; a start block that already holds input is
    // taken as the whole input.
    const input = block.input;
    const initial =
      input != null && typeof input === 'object' && Object.keys(input).length > 0
        ? JSON.stringify(input)
        : '';
    return this.#calls.push({
      index: event.index,
      id: block.id,
      name: block.name,
      argumentsDelta: initial,
    });
  }

  #delta(event: Anthropic.RawContentBlockDeltaEvent): ProviderEvent[] {
    const blockType = this.#blocks.get(event.index);
    const { delta } = event;
    if (delta.type === 'text_delta') {
      if (blockType !== 'text')
        throw this.#invalid(`text for block ${event.index}, which is not an open text block`);
      return this.#appendText(delta.text);
    }
    if (delta.type === 'input_json_delta') {
      if (blockType !== 'tool_use') {
        throw this.#invalid(
          `input_json_delta for block ${event.index}, which is not a tool_use block`,
        );
      }
      return this.#calls.push({ index: event.index, argumentsDelta: delta.partial_json });
    }
    // Thinking, signatures and citations are not part of the provider-neutral turn.
    return [];
  }

  #appendText(text: string): ProviderEvent[] {
    if (text === '') return [];
    this.#text += text;
    return [{ type: 'text-delta', delta: text }];
  }

  #mergeUsage(usage: AnthropicUsageCounters | null | undefined): void {
    if (usage == null) return;
    for (const key of [
      'input_tokens',
      'output_tokens',
      'cache_creation_input_tokens',
      'cache_read_input_tokens',
    ] as const) {
      const value = usage[key];
      if (typeof value === 'number') this.#usage[key] = value;
    }
  }

  #invalid(detail: string): ProviderError {
    const { provider } = this.#context;
    return new ProviderError({
      code: 'invalid_stream',
      provider,
      message: `${provider}: invalid message stream: ${detail}.`,
    });
  }
}
