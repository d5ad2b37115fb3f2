import type { SharedV3ProviderMetadata } from '@ai-sdk/provider';
import type { AssistantToolCall, ProviderEvent, ProviderPart } from '@mtpx/protocol';
import { canonicalJson } from '@mtpx/protocol';
import { ProviderError } from '@mtpx/providers';
import { assistantToolCall, parseToolArguments } from '@mtpx/providers/internal';
import type { StreamPart } from './language-model';
import { providerErrorFromAiSdk } from './model-errors';
import { finishReasonFromAiSdk, usageFromAiSdk } from './model-usage';
import { asJson, turnPart } from './turn-parts';

/** What the assembler needs from the provider it serves. */
export interface AssemblerContext {
  /** The provider's label, for errors. */
  provider: string;
  /** The model's `provider` (`openai.responses`): the parts' `service`, replayed only to it. */
  service: string;
  /** The model asked for: the turn's `model` when the stream does not name the one that answered. */
  modelId?: string;
  /** Maps a tool name the model wrote back to the MTP tool name. */
  fromWireName: (name: string) => string;
  signal?: AbortSignal | undefined;
}

interface Block {
  index: number;
  text: string;
  providerMetadata: SharedV3ProviderMetadata | undefined;
}

interface Call {
  /** Its place among the turn's calls (the events' `index`). */
  order: number;
  /** Its place among the turn's content parts. */
  index: number;
  toolName: string | undefined;
  argumentsText: string;
  ready: boolean;
  providerMetadata: SharedV3ProviderMetadata | undefined;
  /** Its provider part, once it is ready (a later `tool-call` part may add metadata). */
  part?: ProviderPart;
}

/**
 * Reads an AI SDK model's `doStream` parts and yields MTPX provider events: text and
 * reasoning deltas; `tool-input-start` / `-delta` as `tool-call-delta`s and each complete
 * `tool-call` as `tool-call-ready` (so the agent starts it while later parts still
 * stream); provider-executed calls as `server-tool-used`, never as calls; usage and the
 * finish. Every reasoning, text and call part is kept, with its `providerMetadata`, as a
 * provider part at its place in the turn.
 */
export class AiSdkStreamAssembler {
  readonly #context: AssemblerContext;
  #nextIndex = 0;
  readonly #reasoning = new Map<string, Block>();
  readonly #texts = new Map<string, Block>();
  readonly #calls = new Map<string, Call>();
  readonly #callOrder: string[] = [];
  readonly #serverCalls = new Set<string>();
  readonly #parts: ProviderPart[] = [];
  readonly #toolCalls: AssistantToolCall[] = [];
  #finish: ProviderEvent[] | undefined;
  #responseId: string | undefined;
  #modelId: string | undefined;

  constructor(context: AssemblerContext) {
    this.#context = context;
  }

  get finished(): boolean {
    return this.#finish !== undefined;
  }

  /** The events one stream part produces; throws a `ProviderError` for an `error` part. */
  push(part: StreamPart): ProviderEvent[] {
    switch (part.type) {
      case 'response-metadata':
        if (typeof part.id === 'string') this.#responseId = part.id;
        if (typeof part.modelId === 'string') this.#modelId = part.modelId;
        return [];
      case 'text-start':
      case 'text-delta':
      case 'text-end':
        return this.#block(this.#texts, part, 'text-delta');
      case 'reasoning-start':
      case 'reasoning-delta':
      case 'reasoning-end':
        return this.#block(this.#reasoning, part, 'reasoning-delta');
      case 'tool-input-start':
        return this.#inputStart(part);
      case 'tool-input-delta':
        return this.#inputDelta(part);
      case 'tool-call':
        return this.#toolCall(part);
      case 'tool-result':
        this.#keep('provider-tool-result', part, String(part.toolCallId ?? ''));
        return [];
      case 'source':
        this.#parts.push(
          turnPart({
            type: 'source',
            service: this.#context.service,
            index: this.#place(),
            data: part,
          }),
        );
        return [];
      case 'finish':
        return this.#finishPart(part);
      case 'error':
        throw providerErrorFromAiSdk(part.error, this.#context);
      default:
        // stream-start, tool-input-end (the `tool-call` part follows), raw, files, ping.
        return [];
    }
  }

  #place(): number {
    return this.#nextIndex++;
  }

  #block(
    blocks: Map<string, Block>,
    part: StreamPart,
    event: 'text-delta' | 'reasoning-delta',
  ): ProviderEvent[] {
    const id = String(part.id ?? '');
    let block = blocks.get(id);
    if (block === undefined) {
      block = { index: this.#place(), text: '', providerMetadata: undefined };
      blocks.set(id, block);
    }
    if (part.providerMetadata !== undefined) block.providerMetadata = part.providerMetadata;
    if (part.type.endsWith('-delta') && typeof part.delta === 'string' && part.delta !== '') {
      block.text += part.delta;
      return [{ type: event, delta: part.delta }];
    }
    return [];
  }

  #inputStart(part: StreamPart): ProviderEvent[] {
    const id = String(part.id ?? '');
    if (part.providerExecuted === true) {
      this.#serverCalls.add(id);
      return [this.#serverToolUsed(id, part.toolName)];
    }
    const earlier = this.#calls.has(id) ? [] : this.#readyWholeEarlierCalls();
    const call = this.#callFor(id);
    if (typeof part.toolName === 'string') call.toolName = part.toolName;
    if (part.providerMetadata !== undefined) call.providerMetadata = part.providerMetadata;
    return [...earlier, this.#delta(id, call, '')];
  }

  /**
   * A later call has begun: each earlier call whose arguments are a whole JSON object is
   * complete, and ready now — the rule of the native OpenAI adapter. Packages that send
   * every `tool-call` part only when the stream ends (`@ai-sdk/openai`'s Chat model)
   * would otherwise hold every call back until then.
   */
  #readyWholeEarlierCalls(): ProviderEvent[] {
    const events: ProviderEvent[] = [];
    for (const id of this.#callOrder) {
      const call = this.#calls.get(id) as Call;
      if (call.ready || call.toolName === undefined) continue;
      if (!call.argumentsText.trimEnd().endsWith('}')) continue;
      if (!parseToolArguments(call.argumentsText).ok) continue;
      events.push(this.#ready(id, call, call.argumentsText));
    }
    return events;
  }

  #inputDelta(part: StreamPart): ProviderEvent[] {
    const id = String(part.id ?? '');
    if (this.#serverCalls.has(id)) return [];
    const delta = typeof part.delta === 'string' ? part.delta : '';
    const call = this.#callFor(id);
    if (call.ready) {
      if (delta.trim() === '') return [];
      throw this.#invalid(`more arguments for call ${id} after it was complete`);
    }
    call.argumentsText += delta;
    return delta === '' ? [] : [this.#delta(id, call, delta)];
  }

  #toolCall(part: StreamPart): ProviderEvent[] {
    const id = String(part.toolCallId ?? '');
    if (part.providerExecuted === true || this.#serverCalls.has(id)) {
      const events = this.#serverCalls.has(id) ? [] : [this.#serverToolUsed(id, part.toolName)];
      this.#serverCalls.add(id);
      this.#keep('provider-tool-call', part, id);
      return events;
    }
    const call = this.#callFor(id);
    const input = typeof part.input === 'string' ? part.input : JSON.stringify(part.input ?? {});
    if (call.ready) return this.#confirm(id, call, input, part);
    if (typeof part.toolName === 'string') call.toolName = part.toolName;
    if (part.providerMetadata !== undefined) call.providerMetadata = part.providerMetadata;
    // The tool-call part's input is the whole arguments text: what the deltas left out is
    // sent as one more delta, so the deltas add up to the call.
    const events: ProviderEvent[] = [];
    if (input !== call.argumentsText) {
      const rest = input.startsWith(call.argumentsText)
        ? input.slice(call.argumentsText.length)
        : input;
      call.argumentsText = input;
      events.push(this.#delta(id, call, rest));
    }
    events.push(this.#ready(id, call, input));
    return events;
  }

  /** The `tool-call` part of a call already made ready: the same arguments, or the stream is broken. */
  #confirm(id: string, call: Call, input: string, part: StreamPart): ProviderEvent[] {
    if (
      canonicalJson(parseToolArguments(input).arguments) !==
      canonicalJson(parseToolArguments(call.argumentsText).arguments)
    ) {
      throw this.#invalid(`call ${id} was sent again with other arguments after it was complete`);
    }
    if (part.providerMetadata !== undefined && call.part !== undefined) {
      call.providerMetadata = part.providerMetadata;
      call.part.data = asJson({ providerMetadata: part.providerMetadata });
    }
    return [];
  }

  #ready(id: string, call: Call, input: string): ProviderEvent {
    call.ready = true;
    const toolCall = assistantToolCall(id, this.#context.fromWireName(call.toolName ?? ''), input);
    this.#toolCalls.push(toolCall);
    call.part = turnPart({
      type: 'tool-call',
      service: this.#context.service,
      index: call.index,
      callId: id,
      data: call.providerMetadata === undefined ? {} : { providerMetadata: call.providerMetadata },
    });
    this.#parts.push(call.part);
    return { type: 'tool-call-ready', index: call.order, toolCall };
  }

  #callFor(id: string): Call {
    let call = this.#calls.get(id);
    if (call === undefined) {
      call = {
        order: this.#callOrder.length,
        index: this.#place(),
        toolName: undefined,
        argumentsText: '',
        ready: false,
        providerMetadata: undefined,
      };
      this.#calls.set(id, call);
      this.#callOrder.push(id);
    }
    return call;
  }

  #delta(id: string, call: Call, argumentsDelta: string): ProviderEvent {
    return {
      type: 'tool-call-delta',
      index: call.order,
      callId: id,
      ...(call.toolName === undefined
        ? {}
        : { toolName: this.#context.fromWireName(call.toolName) }),
      argumentsDelta,
    };
  }

  #serverToolUsed(id: string, name: unknown): ProviderEvent {
    return {
      type: 'server-tool-used',
      blockType: 'provider-executed-tool',
      ...(id === '' ? {} : { id }),
      ...(typeof name === 'string' ? { name } : {}),
    };
  }

  #keep(type: 'provider-tool-call' | 'provider-tool-result', part: StreamPart, id: string): void {
    this.#parts.push(
      turnPart({
        type,
        service: this.#context.service,
        index: this.#place(),
        data: { part },
        serverTool: { id, name: typeof part.toolName === 'string' ? part.toolName : undefined },
      }),
    );
  }

  #finishPart(part: StreamPart): ProviderEvent[] {
    // A call the stream began but never completed is not a call: it is dropped, never run.
    const { finishReason, raw } = finishReasonFromAiSdk(
      part.finishReason,
      this.#toolCalls.length > 0,
    );
    const usage = usageFromAiSdk(part.usage);
    const events: ProviderEvent[] = [];
    if (usage !== undefined) events.push({ type: 'usage', usage });
    const parts = [...this.#parts, ...this.#blockParts()].sort(
      (a, b) => (a.index ?? 0) - (b.index ?? 0),
    );
    const text = [...this.#texts.values()].map((block) => block.text).join('');
    const reasoning = [...this.#reasoning.values()]
      .map((block) => block.text)
      .filter((each) => each !== '')
      .join('\n\n');
    const message: ProviderEvent & { type: 'finish' } = {
      type: 'finish',
      turn: {
        message: {
          role: 'assistant',
          content: text === '' && this.#toolCalls.length > 0 ? null : text,
          ...(this.#toolCalls.length > 0 ? { tool_calls: this.#toolCalls } : {}),
          ...(parts.length > 0 ? { provider_parts: parts } : {}),
        },
        finishReason,
        ...(usage === undefined ? {} : { usage }),
        ...((this.#modelId ?? this.#context.modelId) === undefined
          ? {}
          : { model: this.#modelId ?? this.#context.modelId }),
        ...(this.#responseId === undefined ? {} : { responseId: this.#responseId }),
        ...(finishReason === 'other' && raw !== undefined ? { rawFinishReason: raw } : {}),
        ...(reasoning === '' ? {} : { reasoning }),
      },
    };
    events.push(message);
    this.#finish = events;
    return events;
  }

  #blockParts(): ProviderPart[] {
    const service = this.#context.service;
    const toPart = (type: 'reasoning' | 'text', block: Block) =>
      turnPart({
        type,
        service,
        index: block.index,
        data: {
          text: block.text,
          ...(block.providerMetadata === undefined
            ? {}
            : { providerMetadata: block.providerMetadata }),
        },
        ...(type === 'reasoning' ? { text: block.text } : {}),
      });
    return [
      ...[...this.#reasoning.values()].map((block) => toPart('reasoning', block)),
      ...[...this.#texts.values()].map((block) => toPart('text', block)),
    ];
  }

  /** The calls that began but are not complete (what a broken stream leaves behind). */
  incomplete(): string[] {
    return this.#callOrder.flatMap((id) => {
      const call = this.#calls.get(id) as Call;
      return call.ready ? [] : [`${id} (${call.toolName ?? 'no tool name yet'})`];
    });
  }

  #invalid(detail: string): ProviderError {
    return new ProviderError({
      code: 'invalid_stream',
      provider: this.#context.provider,
      message: `${this.#context.provider}: invalid tool-call stream: ${detail}.`,
    });
  }
}
