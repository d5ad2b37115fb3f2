import type { AssistantToolCall, ProviderEvent, ToolArguments } from '@mtpx/protocol';
import { createFallbackCallId } from './call-ids';
import { ProviderError } from './provider-error';
import {
  assistantToolCallFromParsed,
  type ParsedToolArguments,
  parseToolArguments,
} from './tool-arguments';

/** True when the last character that is not white space is `}` (without copying the text). */
function endsWithBrace(text: string): boolean {
  for (let index = text.length - 1; index >= 0; index--) {
    const code = text.charCodeAt(index);
    if (code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09) continue;
    return code === 0x7d;
  }
  return false;
}

/** One streamed piece of a tool call, as an API sends it. */
export interface ToolCallFragment {
  /** The API's index for the call (OpenAI's `index`, Anthropic's content block index). */
  index: number;
  /** The call's id, when this fragment carries it. */
  id?: string | undefined;
  /** The tool's wire name, when this fragment carries it. */
  name?: string | undefined;
  /** More of the arguments' JSON text. */
  argumentsDelta?: string | undefined;
}

/**
 * When a call counts as complete:
 * - `next-call-or-end` (OpenAI-style index streams): its arguments parse as a whole JSON
 *   object and a later call has begun, or the stream has ended normally;
 * - `explicit` (Anthropic-style block streams): when {@link ToolCallAccumulator.complete}
 *   is called for it, or the stream has ended normally.
 */
export type ReadinessRule = 'next-call-or-end' | 'explicit';

/** What a {@link ToolCallAccumulator} needs. */
export interface ToolCallAccumulatorOptions {
  /** The provider's label, for error messages. */
  provider: string;
  readiness: ReadinessRule;
  /** Maps a wire name back to the MTP tool name. */
  mapName?: (providerName: string) => string;
  /** An id for a call the API sent without one; `call_mtpx_<random>` by default. */
  createId?: () => string;
  /** Rewrites a complete call's parsed arguments (by MTP tool name) before it is reported. */
  mapArguments?: (toolName: string, args: ToolArguments) => ToolArguments;
}

/** A call that has begun streaming but is not complete. */
export interface IncompleteToolCall {
  index: number;
  id: string | undefined;
  name: string | undefined;
  argumentsText: string;
}

interface Slot {
  order: number;
  id: string | undefined;
  wireName: string | undefined;
  argumentsText: string;
  call: AssistantToolCall | undefined;
  /** The length of `argumentsText` when it was last parsed (-1: never): text is parsed once per change. */
  parsedLength: number;
  /** That parse's result, reused when the call becomes ready. */
  parsed: ParsedToolArguments | undefined;
}

/**
 * Assembles tool calls from streamed fragments and decides when each one is complete,
 * so a runtime can start it while the model is still streaming later calls.
 *
 * Fragments are grouped by the API's index; indices may interleave. A fragment with a
 * new id at an index whose call already has another id starts a new call (some APIs
 * reuse index 0 for every call). Each method returns the events to emit, in order:
 * `tool-call-delta` for every fragment that adds something, `tool-call-ready` once per
 * call. A fragment that adds arguments to a call already reported ready throws a
 * {@link ProviderError} (`invalid_stream`): it is never merged into a call that may
 * already be running.
 *
 * Event `index`es count calls in the order they began (0, 1, 2, …).
 */
export class ToolCallAccumulator {
  readonly #options: ToolCallAccumulatorOptions;
  readonly #slots: Slot[] = [];
  readonly #byIndex = new Map<number, Slot>();
  /** Slots before this one are all ready (so each push looks only at the rest). */
  #firstOpen = 0;

  constructor(options: ToolCallAccumulatorOptions) {
    this.#options = options;
  }

  /** Adds one fragment. Throws `invalid_stream` when it extends a call already reported ready. */
  push(fragment: ToolCallFragment): ProviderEvent[] {
    const events: ProviderEvent[] = [];
    let slot = this.#byIndex.get(fragment.index);
    const startsNewCall =
      slot === undefined ||
      (fragment.id !== undefined &&
        fragment.id !== '' &&
        slot.id !== undefined &&
        fragment.id !== slot.id);
    if (slot === undefined || startsNewCall) {
      slot = {
        order: this.#slots.length,
        id: undefined,
        wireName: undefined,
        argumentsText: '',
        call: undefined,
        parsedLength: -1,
        parsed: undefined,
      };
      this.#slots.push(slot);
      this.#byIndex.set(fragment.index, slot);
    }
    const delta = fragment.argumentsDelta ?? '';
    if (slot.call !== undefined) {
      this.#rejectLateFragment(slot, fragment, delta);
      return events;
    }
    const isNew = slot.argumentsText === '' && slot.id === undefined && slot.wireName === undefined;
    if (fragment.id !== undefined && fragment.id !== '') slot.id = fragment.id;
    if (fragment.name !== undefined && fragment.name !== '') {
      if (slot.wireName !== undefined && slot.wireName !== fragment.name) {
        throw this.#invalid(
          `the call at index ${slot.order} changed its tool name from "${slot.wireName}" to "${fragment.name}"`,
        );
      }
      slot.wireName = fragment.name;
    }
    slot.argumentsText += delta;
    if (isNew || delta !== '') {
      events.push({
        type: 'tool-call-delta',
        index: slot.order,
        ...(slot.id === undefined ? {} : { callId: slot.id }),
        ...(slot.wireName === undefined ? {} : { toolName: this.#mapName(slot.wireName) }),
        argumentsDelta: delta,
      });
    }
    if (this.#options.readiness === 'next-call-or-end') this.#readyEarlierCalls(events);
    return events;
  }

  /** Marks the call at the API's `index` complete (Anthropic's `content_block_stop`). */
  complete(index: number): ProviderEvent[] {
    const slot = this.#byIndex.get(index);
    if (slot === undefined || slot.call !== undefined) return [];
    return [this.#ready(slot)];
  }

  /** The stream ended normally: every call not yet complete is complete now, in order. */
  completeAll(): ProviderEvent[] {
    return this.#slots.filter((slot) => slot.call === undefined).map((slot) => this.#ready(slot));
  }

  /** Calls that began but were not reported ready (what a broken stream leaves behind). */
  incomplete(): IncompleteToolCall[] {
    return this.#slots
      .filter((slot) => slot.call === undefined)
      .map((slot) => ({
        index: slot.order,
        id: slot.id,
        name: slot.wireName === undefined ? undefined : this.#mapName(slot.wireName),
        argumentsText: slot.argumentsText,
      }));
  }

  /** The calls reported ready, in the order they began. */
  toolCalls(): AssistantToolCall[] {
    return this.#slots.flatMap((slot) => (slot.call === undefined ? [] : [slot.call]));
  }

  /** True when no call has begun. */
  get isEmpty(): boolean {
    return this.#slots.length === 0;
  }

  #readyEarlierCalls(events: ProviderEvent[]): void {
    const last = this.#slots.length - 1;
    while (this.#firstOpen < last && this.#slots[this.#firstOpen]?.call !== undefined) {
      this.#firstOpen++;
    }
    for (let order = this.#firstOpen; order < last; order++) {
      const slot = this.#slots[order] as Slot;
      if (slot.call !== undefined || slot.wireName === undefined) continue;
      // Parsed only when its text changed since the last try, and only when it can be a
      // whole object (it ends with `}`): the cost stays linear in the bytes received,
      // however many fragments of later calls follow an unparsable one.
      if (slot.argumentsText.length === slot.parsedLength) continue;
      if (!endsWithBrace(slot.argumentsText)) continue;
      if (this.#parse(slot).ok) events.push(this.#ready(slot));
    }
  }

  #parse(slot: Slot): ParsedToolArguments {
    if (slot.parsed === undefined || slot.parsedLength !== slot.argumentsText.length) {
      slot.parsed = parseToolArguments(slot.argumentsText);
      slot.parsedLength = slot.argumentsText.length;
    }
    return slot.parsed;
  }

  #ready(slot: Slot): ProviderEvent {
    slot.id ??= (this.#options.createId ?? createFallbackCallId)();
    const name = slot.wireName === undefined ? '' : this.#mapName(slot.wireName);
    slot.call = assistantToolCallFromParsed(slot.id, name, this.#parse(slot));
    const { mapArguments } = this.#options;
    if (mapArguments !== undefined && slot.call.arguments_error === undefined) {
      slot.call.arguments = mapArguments(name, slot.call.arguments);
    }
    return { type: 'tool-call-ready', index: slot.order, toolCall: slot.call };
  }

  #rejectLateFragment(slot: Slot, fragment: ToolCallFragment, delta: string): void {
    const addsArguments = delta.trim() !== '';
    const renames =
      fragment.name !== undefined && fragment.name !== '' && fragment.name !== slot.wireName;
    if (!addsArguments && !renames) return;
    const what = addsArguments ? `more arguments (${JSON.stringify(delta)})` : 'a new tool name';
    throw this.#invalid(
      `the API sent ${what} for call ${slot.id} (${slot.call?.name}) after it was complete and reported ready`,
    );
  }

  #mapName(wireName: string): string {
    return this.#options.mapName ? this.#options.mapName(wireName) : wireName;
  }

  #invalid(detail: string): ProviderError {
    return new ProviderError({
      code: 'invalid_stream',
      provider: this.#options.provider,
      message: `${this.#options.provider}: invalid tool-call stream: ${detail}.`,
    });
  }
}
