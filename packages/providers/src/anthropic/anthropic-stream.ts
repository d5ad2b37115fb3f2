import type Anthropic from '@anthropic-ai/sdk';
import { type ProviderEvent, safeParseJson } from '@mtpx/protocol';
import { reasoningText } from '@mtpx/protocol/internal';
import { ProviderError } from '../provider-error';
import type { StreamAssembler } from '../provider-stream';
import { assistantContent, closingEvents, providerTurn } from '../provider-turn';
import { streamInterruptedError } from '../stream-interruption';
import { ToolCallAccumulator } from '../tool-call-accumulator';
import { isServerToolBlock, turnParts } from './anthropic-parts';
import {
  type AnthropicTurnContext,
  type AnthropicUsageCounters,
  anthropicFinishReason,
  anthropicRefusal,
  anthropicUsage,
} from './anthropic-response';

/** A content block as it streams: the start block, with its deltas merged in. */
interface OpenBlock {
  type: string;
  block: Record<string, unknown>;
  /** A server tool block's `input` JSON text, from `input_json_delta`. */
  inputJson: string;
}

/**
 * Turns Messages API stream events into provider events. Text deltas pass through;
 * `thinking_delta` becomes `reasoning-delta`; each `tool_use` block's `input_json_delta`
 * pieces are accumulated, and the call is reported ready at the block's
 * `content_block_stop`. Every other block (thinking with its signature, redacted
 * thinking, server tool blocks with their own `input_json_delta`) is assembled and kept
 * as a provider part, and a server tool block is announced with `server-tool-used`; it
 * is never a tool call. A stream that ends without `message_stop` was cut off: {@link end}
 * throws `stream_interrupted`, and blocks left open are never reported ready. A delta
 * for a closed or unknown block throws `invalid_stream`.
 */
export class AnthropicStreamAssembler implements StreamAssembler<Anthropic.RawMessageStreamEvent> {
  readonly #context: AnthropicTurnContext;
  readonly #calls: ToolCallAccumulator;
  /** Content block index → the block, while it is open. */
  readonly #open = new Map<number, OpenBlock>();
  /** Every block that has started, by index (closed ones included), for the turn's parts. */
  readonly #blocks = new Map<number, OpenBlock>();
  #text = '';
  #stopReason: string | null | undefined;
  #stopDetails: unknown;
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
        return this.#stopBlock(event.index);
      case 'message_delta':
        this.#stopReason = event.delta.stop_reason;
        this.#stopDetails = (event.delta as { stop_details?: unknown }).stop_details;
        this.#mergeUsage(event.usage as AnthropicUsageCounters);
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
    const blocks = [...this.#blocks.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, open]) => ({ index, block: finishedBlock(open) }));
    const providerParts = turnParts(blocks);
    const finishReason = anthropicFinishReason(this.#stopReason);
    return closingEvents(
      providerTurn({
        content: assistantContent(this.#text, toolCalls),
        toolCalls,
        finishReason,
        usage: anthropicUsage(this.#usage),
        model: this.#model,
        responseId: this.#responseId,
        providerParts,
        reasoning: reasoningText(providerParts),
        rawFinishReason: this.#stopReason,
        refusal:
          finishReason === 'refusal' ? anthropicRefusal(this.#stopDetails, this.#text) : undefined,
      }),
    );
  }

  #startBlock(event: Anthropic.RawContentBlockStartEvent): ProviderEvent[] {
    const block = { ...(event.content_block as unknown as Record<string, unknown>) };
    const type = String(block.type);
    const open: OpenBlock = { type, block, inputJson: '' };
    this.#open.set(event.index, open);
    this.#blocks.set(event.index, open);
    if (type === 'text') return this.#appendText(typeof block.text === 'string' ? block.text : '');
    if (type === 'thinking' && typeof block.thinking === 'string' && block.thinking !== '') {
      return [{ type: 'reasoning-delta', delta: block.thinking }];
    }
    if (isServerToolBlock(type)) {
      const id = block.id ?? block.tool_use_id;
      return [
        {
          type: 'server-tool-used',
          blockType: type,
          ...(typeof id === 'string' ? { id } : {}),
          ...(typeof block.name === 'string' ? { name: block.name } : {}),
        },
      ];
    }
    if (type !== 'tool_use') return [];
    // The API streams the input as deltas; a start block that already holds input is
    // taken as the whole input.
    const input = block.input;
    const initial =
      input != null && typeof input === 'object' && Object.keys(input).length > 0
        ? JSON.stringify(input)
        : '';
    return this.#calls.push({
      index: event.index,
      id: typeof block.id === 'string' ? block.id : undefined,
      name: typeof block.name === 'string' ? block.name : undefined,
      argumentsDelta: initial,
    });
  }

  #stopBlock(index: number): ProviderEvent[] {
    const open = this.#open.get(index);
    this.#open.delete(index);
    if (open?.type === 'tool_use') return this.#calls.complete(index);
    return [];
  }

  #delta(event: Anthropic.RawContentBlockDeltaEvent): ProviderEvent[] {
    const open = this.#open.get(event.index);
    const delta = event.delta as unknown as Record<string, unknown> & { type: string };
    const requireOpen = (what: string, types: (type: string) => boolean): OpenBlock => {
      if (open === undefined || !types(open.type)) {
        throw this.#invalid(
          `${what} for block ${event.index}, which is not an open ${describe(types)} block`,
        );
      }
      return open;
    };
    switch (delta.type) {
      case 'text_delta': {
        const block = requireOpen('text', (type) => type === 'text');
        const text = String(delta.text ?? '');
        block.block.text = `${String(block.block.text ?? '')}${text}`;
        return this.#appendText(text);
      }
      case 'citations_delta': {
        const block = requireOpen('citations_delta', (type) => type === 'text');
        const citations = Array.isArray(block.block.citations) ? block.block.citations : [];
        block.block.citations = [...citations, delta.citation];
        return [];
      }
      case 'thinking_delta': {
        const block = requireOpen('thinking_delta', (type) => type === 'thinking');
        const text = String(delta.thinking ?? '');
        block.block.thinking = `${String(block.block.thinking ?? '')}${text}`;
        return text === '' ? [] : [{ type: 'reasoning-delta', delta: text }];
      }
      case 'signature_delta': {
        const block = requireOpen('signature_delta', (type) => type === 'thinking');
        block.block.signature = `${String(block.block.signature ?? '')}${String(delta.signature ?? '')}`;
        return [];
      }
      case 'input_json_delta': {
        const block = requireOpen(
          'input_json_delta',
          (type) => type === 'tool_use' || isServerToolBlock(type),
        );
        const partial = String(delta.partial_json ?? '');
        if (block.type !== 'tool_use') {
          block.inputJson += partial;
          return [];
        }
        return this.#calls.push({ index: event.index, argumentsDelta: partial });
      }
      default:
        return [];
    }
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
    if (usage.cache_creation != null) this.#usage.cache_creation = usage.cache_creation;
    if (usage.output_tokens_details != null) {
      this.#usage.output_tokens_details = usage.output_tokens_details;
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

function describe(types: (type: string) => boolean): string {
  if (types('text')) return 'text';
  if (types('thinking')) return 'thinking';
  return 'tool_use or server tool';
}

/** A streamed block as the whole response would have held it (a server tool's input parsed). */
function finishedBlock(open: OpenBlock): Record<string, unknown> {
  if (open.type === 'tool_use' || !isServerToolBlock(open.type) || open.inputJson === '') {
    return open.block;
  }
  const parsed = safeParseJson(open.inputJson);
  return { ...open.block, input: parsed.ok ? parsed.value : open.block.input };
}
