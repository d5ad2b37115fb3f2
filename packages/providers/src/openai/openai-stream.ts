import type { ProviderEvent, ProviderPart, Usage } from '@mtpx/protocol';
import { reasoningText } from '@mtpx/protocol/internal';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { ProviderError } from '../provider-error';
import type { StreamAssembler } from '../provider-stream';
import { assistantContent, closingEvents, providerTurn } from '../provider-turn';
import { streamInterruptedError } from '../stream-interruption';
import { ToolCallAccumulator } from '../tool-call-accumulator';
import { callExtraPart, fieldPart, REASONING_FIELDS, type ReasoningField } from './openai-parts';
import type { OpenAITurnContext } from './openai-response';
import { openAIFinishReason, openAIUsage } from './openai-response';

/**
 * Turns Chat Completions stream chunks into provider events. Text deltas pass through;
 * reasoning deltas (`reasoning_content`, `reasoning`, the text of `reasoning_details`)
 * become `reasoning-delta` and are assembled into the turn's provider parts, as is each
 * call's `extra_content`; `refusal` deltas make the turn a `refusal`;
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
  /** Each reasoning field the service sent, assembled (strings joined, `reasoning_details` merged). */
  readonly #fields = new Map<ReasoningField, unknown>();
  /** Each call's `extra_content`, by the call's place in the turn. */
  readonly #callExtras = new Map<number, unknown>();
  #refusal = '';

  constructor(context: OpenAITurnContext) {
    this.#context = context;
    this.#calls = new ToolCallAccumulator({
      provider: context.provider,
      readiness: 'next-call-or-end',
      mapName: context.names.fromProvider,
      createId: context.createId,
      ...(context.mapArguments === undefined ? {} : { mapArguments: context.mapArguments }),
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
    if (typeof delta.refusal === 'string') this.#refusal += delta.refusal;
    events.push(...this.#reasoning(delta as unknown as Record<string, unknown>));
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
      const index = typeof fragment.index === 'number' ? fragment.index : position;
      const produced = this.#calls.push({
        index,
        id: typeof fragment.id === 'string' ? fragment.id : undefined,
        name: typeof fragment.function?.name === 'string' ? fragment.function.name : undefined,
        argumentsDelta: typeof argumentsDelta === 'string' ? argumentsDelta : undefined,
      });
      const extra = (fragment as unknown as Record<string, unknown>).extra_content;
      if (extra != null) {
        const delta = produced.find((event) => event.type === 'tool-call-delta');
        this.#callExtras.set(delta?.type === 'tool-call-delta' ? delta.index : index, extra);
      }
      events.push(...produced);
    });
    if (choice.finish_reason != null && this.#finishReason === undefined) {
      this.#finishReason = choice.finish_reason;
      events.push(...this.#calls.completeAll());
    }
    // Once the model has refused, no call of the turn is reported ready: none may start.
    return this.#refusal === ''
      ? events
      : events.filter((event) => event.type !== 'tool-call-ready');
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
    const service = this.#context.service ?? this.#context.provider;
    const providerParts: ProviderPart[] = REASONING_FIELDS.flatMap((field) =>
      this.#fields.has(field) ? [fieldPart(service, field, this.#fields.get(field))] : [],
    );
    toolCalls.forEach((call, order) => {
      if (this.#callExtras.has(order)) {
        providerParts.push(callExtraPart(service, call.id, this.#callExtras.get(order)));
      }
    });
    const refused = this.#refusal !== '';
    return closingEvents(
      providerTurn({
        content: assistantContent(this.#text, toolCalls),
        toolCalls,
        finishReason: openAIFinishReason(this.#finishReason, toolCalls.length > 0, refused),
        usage: this.#usage,
        model: this.#model,
        responseId: this.#responseId,
        providerParts,
        reasoning: reasoningText(providerParts),
        refusal: refused ? this.#refusal : undefined,
        rawFinishReason: this.#finishReason,
      }),
    );
  }

  /** Assembles the reasoning fields of one delta; the readable pieces as `reasoning-delta`. */
  #reasoning(delta: Record<string, unknown>): ProviderEvent[] {
    const events: ProviderEvent[] = [];
    for (const field of ['reasoning_content', 'reasoning'] as const) {
      const piece = delta[field];
      if (typeof piece !== 'string') continue;
      this.#fields.set(field, `${String(this.#fields.get(field) ?? '')}${piece}`);
      if (piece !== '') events.push({ type: 'reasoning-delta', delta: piece });
    }
    const details = delta.reasoning_details;
    if (Array.isArray(details) && details.length > 0) {
      const merged = mergeReasoningDetails(this.#fields.get('reasoning_details'), details);
      this.#fields.set('reasoning_details', merged);
      for (const detail of details) {
        const text = detailText(detail);
        if (text !== '') events.push({ type: 'reasoning-delta', delta: text });
      }
    }
    if (delta.extra_content != null) this.#fields.set('extra_content', delta.extra_content);
    return events;
  }
}

function detailText(detail: unknown): string {
  if (detail == null || typeof detail !== 'object') return '';
  const { type, text, summary } = detail as { type?: unknown; text?: unknown; summary?: unknown };
  if (type === 'reasoning.text' && typeof text === 'string') return text;
  if (type === 'reasoning.summary' && typeof summary === 'string') return summary;
  return '';
}

/**
 * OpenRouter streams `reasoning_details` as pieces: a piece with the `index` and `type`
 * of one already seen extends it (its `text`, `summary` or `data` appended, other fields
 * taken as they come); any other piece is a new detail.
 */
function mergeReasoningDetails(current: unknown, pieces: readonly unknown[]): unknown[] {
  const details = Array.isArray(current) ? current.map((detail) => ({ ...detail })) : [];
  for (const piece of pieces) {
    if (piece == null || typeof piece !== 'object') continue;
    const incoming = piece as Record<string, unknown>;
    const existing = details.find(
      (detail) =>
        incoming.index !== undefined &&
        detail.index === incoming.index &&
        detail.type === incoming.type,
    );
    if (existing === undefined) {
      details.push({ ...incoming });
      continue;
    }
    for (const [key, value] of Object.entries(incoming)) {
      if ((key === 'text' || key === 'summary' || key === 'data') && typeof value === 'string') {
        existing[key] = `${typeof existing[key] === 'string' ? existing[key] : ''}${value}`;
      } else if (value != null) {
        existing[key] = value;
      }
    }
  }
  return details;
}
