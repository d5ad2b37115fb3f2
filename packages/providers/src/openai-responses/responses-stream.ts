import type { ProviderEvent } from '@mtpx/protocol';
import type { StreamAssembler } from '../provider-stream';
import { closingEvents } from '../provider-turn';
import { streamInterruptedError } from '../stream-interruption';
import { ToolCallAccumulator } from '../tool-call-accumulator';
import {
  isServerItem,
  messageItemText,
  type ResponsesItem,
  reasoningItemText,
  serverToolOf,
} from './responses-parts';
import {
  outputItems,
  type ResponsesResponse,
  type ResponsesTurnContext,
  readItems,
  responsesFailure,
  responsesTurn,
} from './responses-turn';

/** A Responses stream event, as far as the assembler reads it. */
export interface ResponsesStreamEvent {
  type: string;
  [key: string]: unknown;
}

const isItem = (value: unknown): value is ResponsesItem =>
  value != null &&
  typeof value === 'object' &&
  typeof (value as { type?: unknown }).type === 'string';

/**
 * Turns Responses stream events into provider events. `response.output_text.delta` is
 * text; `response.reasoning_summary_text.delta` (and `reasoning_text.delta`) readable
 * reasoning; a function call's `response.output_item.added` and
 * `response.function_call_arguments.delta` are `tool-call-delta`s, and its
 * `response.output_item.done` makes it ready (with the `call_id` the done item holds),
 * one call at a time while later items still stream. A server-run item is announced with
 * `server-tool-used` and never becomes a call. Every done item is kept, at its
 * `output_index`, as a provider part. `response.failed` and `error` events throw the
 * API's error; a stream that ends before `response.completed` / `response.incomplete`
 * throws `stream_interrupted`, and calls not yet done are never reported ready.
 */
export class ResponsesStreamAssembler implements StreamAssembler<ResponsesStreamEvent> {
  readonly #context: ResponsesTurnContext;
  readonly #calls: ToolCallAccumulator;
  readonly #items = new Map<number, ResponsesItem>();
  #response: ResponsesResponse = {};
  #finished = false;
  #text = '';
  #textItem: number | undefined;
  #reasoningKey: string | undefined;
  #reasoningSeen = false;
  /** The text and readable reasoning streamed so far, per `output_index`. */
  readonly #streamedText = new Map<number, string>();
  readonly #streamedReasoning = new Map<number, string>();
  #refusal = '';
  /** Whether arguments text arrived for the call at an `output_index` before its done item. */
  readonly #streamedArguments = new Map<number, boolean>();

  constructor(context: ResponsesTurnContext) {
    this.#context = context;
    this.#calls = new ToolCallAccumulator({
      provider: context.provider,
      readiness: 'explicit',
      mapName: context.names.fromProvider,
      ...(context.mapArguments === undefined ? {} : { mapArguments: context.mapArguments }),
    });
  }

  /** The calls that began but are not complete, for an interruption message. */
  get incomplete() {
    return this.#calls.incomplete();
  }

  push(event: ResponsesStreamEvent): ProviderEvent[] {
    const events = this.#read(event);
    return this.#refusal === '' ? events : events.filter((each) => each.type !== 'tool-call-ready');
  }

  #read(event: ResponsesStreamEvent): ProviderEvent[] {
    const index = typeof event.output_index === 'number' ? event.output_index : -1;
    switch (event.type) {
      case 'response.created':
      case 'response.in_progress':
      case 'response.queued':
        if (event.response != null) this.#response = event.response as ResponsesResponse;
        return [];
      case 'response.output_item.added':
        return isItem(event.item) ? this.#added(event.item, index) : [];
      case 'response.function_call_arguments.delta':
        if (typeof event.delta !== 'string' || event.delta === '') return [];
        this.#streamedArguments.set(index, true);
        return this.#calls.push({ index, argumentsDelta: event.delta });
      case 'response.output_item.done':
        return isItem(event.item) ? this.#done(event.item, index) : [];
      case 'response.output_text.delta':
        return typeof event.delta === 'string' ? this.#textDelta(event.delta, index) : [];
      case 'response.refusal.delta':
        if (typeof event.delta === 'string') this.#refusal += event.delta;
        return [];
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta': {
        const part = event.summary_index ?? event.content_index ?? 0;
        return typeof event.delta === 'string'
          ? this.#reasoningDelta(event.delta, index, `${event.type}:${String(part)}`)
          : [];
      }
      case 'response.completed':
      case 'response.incomplete':
        return this.#finish(event.response as ResponsesResponse | undefined);
      case 'response.failed':
        throw responsesFailure(
          this.#context.provider,
          (event.response as ResponsesResponse | undefined)?.error,
        );
      case 'error':
        throw responsesFailure(this.#context.provider, event.error ?? event);
      default:
        return [];
    }
  }

  #added(item: ResponsesItem, index: number): ProviderEvent[] {
    if (item.type === 'function_call') {
      if (typeof item.arguments === 'string' && item.arguments !== '') {
        this.#streamedArguments.set(index, true);
      }
      return this.#calls.push({
        index,
        name: typeof item.name === 'string' ? item.name : undefined,
        argumentsDelta: typeof item.arguments === 'string' ? item.arguments : '',
      });
    }
    if (isServerItem(item)) {
      return [{ type: 'server-tool-used', blockType: item.type, ...serverToolOf(item) }];
    }
    return [];
  }

  #done(item: ResponsesItem, index: number): ProviderEvent[] {
    this.#items.set(index, item);
    // The done item is the whole item: what its deltas left out (a proxy that sends only
    // the done item, a trimmed stream) is streamed now, so the events add up to the turn.
    if (item.type === 'message') {
      const rest = remainder(messageItemText(item), this.#streamedText.get(index) ?? '');
      return rest === '' ? [] : this.#textDelta(rest, index);
    }
    if (item.type === 'reasoning') {
      const rest = remainder(reasoningItemText(item), this.#streamedReasoning.get(index) ?? '');
      const part = this.#reasoningKey?.startsWith(`${index}:`)
        ? this.#reasoningKey.slice(`${index}:`.length)
        : 'done';
      return rest === '' ? [] : this.#reasoningDelta(rest, index, part);
    }
    if (item.type !== 'function_call') return [];
    // The done item is the truth: its `call_id` (what `function_call_output` answers) and,
    // when no delta carried them, its arguments.
    const text = typeof item.arguments === 'string' ? item.arguments : '';
    const missing = this.#streamedArguments.get(index) ? '' : text;
    const events = this.#calls.push({
      index,
      id: typeof item.call_id === 'string' ? item.call_id : undefined,
      name: typeof item.name === 'string' ? item.name : undefined,
      argumentsDelta: missing,
    });
    return [...events, ...this.#calls.complete(index)];
  }

  #textDelta(delta: string, index: number): ProviderEvent[] {
    if (delta === '') return [];
    const events: ProviderEvent[] = [];
    if (this.#textItem !== undefined && this.#textItem !== index && this.#text !== '') {
      this.#text += '\n\n';
      events.push({ type: 'text-delta', delta: '\n\n' });
    }
    this.#textItem = index;
    this.#text += delta;
    this.#streamedText.set(index, `${this.#streamedText.get(index) ?? ''}${delta}`);
    events.push({ type: 'text-delta', delta });
    return events;
  }

  #reasoningDelta(delta: string, index: number, part: string): ProviderEvent[] {
    if (delta === '') return [];
    const events: ProviderEvent[] = [];
    const key = `${index}:${part}`;
    const own = this.#streamedReasoning.get(index) ?? '';
    let piece = delta;
    if (this.#reasoningSeen && this.#reasoningKey !== key) {
      events.push({ type: 'reasoning-delta', delta: '\n\n' });
      // Between the summaries of one item the blank line is part of the item's text.
      if (own !== '') piece = `\n\n${delta}`;
    }
    this.#reasoningKey = key;
    this.#reasoningSeen = true;
    this.#streamedReasoning.set(index, `${own}${piece}`);
    events.push({ type: 'reasoning-delta', delta });
    return events;
  }

  #finish(response: ResponsesResponse | undefined): ProviderEvent[] {
    this.#response = response ?? this.#response;
    this.#finished = true;
    const events: ProviderEvent[] = [];
    // A stream that carried no done items (a proxy that sends only the final response):
    // the final response's items, calls included.
    if (this.#items.size === 0) {
      for (const { item, index } of outputItems(this.#response)) {
        events.push(...this.#added(item, index), ...this.#done(item, index));
      }
    }
    return [...events, ...this.#calls.completeAll()];
  }

  end(): ProviderEvent[] {
    if (!this.#finished) {
      throw streamInterruptedError({
        provider: this.#context.provider,
        reason: 'no response.completed or response.incomplete event was received',
        incomplete: this.#calls.incomplete(),
      });
    }
    const items = [...this.#items.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, item]) => ({ index, item }));
    const { parts, text, refusal } = readItems(items, this.#context.service);
    return closingEvents(
      responsesTurn({
        response: this.#response,
        toolCalls: this.#calls.toolCalls(),
        parts,
        text: text !== '' ? text : this.#text,
        refusal: this.#refusal !== '' ? this.#refusal : refusal,
        service: this.#context.service,
      }),
    );
  }
}

/** What `whole` holds beyond `streamed`, when `streamed` is its beginning. */
function remainder(whole: string, streamed: string): string {
  return whole.length > streamed.length && whole.startsWith(streamed)
    ? whole.slice(streamed.length)
    : '';
}
