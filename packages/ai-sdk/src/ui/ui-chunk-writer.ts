import type { AgentEvent } from '@mtpx/agent';
import {
  type CallView,
  createRunView,
  type RunView,
  reduceRunView,
  resolveKnownReferences,
} from '@mtpx/agent/run-view';
import { findRefs, type JsonValue, type ToolResult } from '@mtpx/protocol';
import type { FinishReason as UIFinishReason, UIMessageChunk } from 'ai';
import { PRELIMINARY_OUTPUT_MESSAGE } from '../tools/run-ai-sdk-tool';
import { callData, reasonText, toUIFinishReason } from './call-data';
import type { MtpxDataTypes } from './mtpx-data-parts';
import { TextParts } from './text-parts';

/** A chunk of the UI message stream with MTPX's data parts typed. */
export type MtpxUIMessageChunk = UIMessageChunk<unknown, MtpxDataTypes>;

/**
 * How an agent's events are written as UI message stream chunks: the options of
 * {@link @mtpx/ai-sdk!toUIMessageStream | toUIMessageStream}.
 */
export interface UIChunkWriterOptions {
  /** The assistant message's id (`start.messageId`); default: the run id. */
  messageId?: string;
  /** Send the model's readable reasoning as `reasoning-*` parts. Default: true. */
  sendReasoning?: boolean;
  /** Send MTPX's `data-mtpx-*` parts. Default: true. */
  sendData?: boolean;
  /** The `errorText` a failed run shows; default: the error's message. */
  onError?: (error: unknown) => string;
  /**
   * Which tools are dynamic (their parts are `dynamic-tool`, as `streamText` sends an AI SDK
   * `dynamicTool`'s); default none: every call is a `tool-${name}` part.
   */
  dynamicTools?: (toolName: string) => boolean;
}

/** A tool call as the stream has shown it so far. */
interface ToolPartState {
  toolName: string;
  /** The input last sent with `tool-input-available`, as JSON text. */
  sentInput?: string;
  /** An output (or error) has been sent: the part is done. */
  answered: boolean;
}

/** Calls of a round still streaming, by their place in the response. */
interface StreamingCall {
  callId?: string;
  toolName?: string;
  started: boolean;
  pending: string[];
}

/**
 * Turns an MTPX agent's events, one at a time, into the AI SDK's UI message chunks. The
 * run view (`reduceRunView`, the one reducer every consumer renders from) supplies what an
 * event means: resolved arguments, whether a call started during the stream, the edges.
 */
export class UIChunkWriter {
  #view: RunView = createRunView();
  readonly #options: UIChunkWriterOptions;
  readonly #text: TextParts;
  readonly #tools = new Map<string, ToolPartState>();
  #streaming = new Map<number, StreamingCall>();
  #sentEdges = new Set<string>();
  /** The last data sent per data part, so an unchanged one is not sent again. */
  readonly #sentData = new Map<string, string>();
  #started = false;
  #ended = false;

  constructor(options: UIChunkWriterOptions = {}) {
    this.#options = options;
    this.#text = new TextParts(options.sendReasoning !== false);
  }

  /** True once the run has ended (finished, cancelled or failed). */
  get ended(): boolean {
    return this.#ended;
  }

  /** The chunks for one event (none for events the UI has no use for). */
  write(event: AgentEvent): MtpxUIMessageChunk[] {
    this.#view = reduceRunView(this.#view, event);
    const out: MtpxUIMessageChunk[] = [];
    if (!this.#started) {
      this.#started = true;
      out.push({ type: 'start', messageId: this.#options.messageId ?? event.runId });
    }
    switch (event.type) {
      case 'run-started':
        this.#data(out, 'mtpx-run', event.runId, {
          runId: event.runId,
          provider: event.provider,
          model: event.model,
          eagerDispatch: event.eagerDispatch,
        });
        break;
      case 'round-started':
        this.#streaming = new Map();
        out.push({ type: 'start-step' });
        break;
      case 'text-delta':
        out.push(...this.#text.text(event.runId, event.round, event.delta));
        break;
      case 'reasoning-delta':
        out.push(...this.#text.reasoning(event.runId, event.round, event.text));
        break;
      case 'tool-call-delta':
        out.push(...this.#text.close());
        this.#callDelta(out, event);
        break;
      case 'tool-call-ready': {
        out.push(...this.#text.close());
        const streaming = this.#streaming.get(event.index);
        if (streaming !== undefined && !streaming.started) {
          streaming.callId = event.call.id;
          streaming.toolName = event.call.name;
          this.#startStreamingCall(out, streaming);
        }
        this.#streaming.delete(event.index);
        const known = this.#known(event.call.arguments);
        // `tool-input-available` goes once, with the input the tool gets: a call still
        // waiting for a referenced output shows as input-streaming until it starts.
        if (findRefs(known).length === 0) this.#input(out, event.call.id, event.call.name, known);
        else this.#startPart(out, event.call.id, event.call.name);
        this.#callData(out, event.call.id);
        this.#edges(out, event.call.id);
        break;
      }
      case 'call-held':
      case 'call-released':
      case 'approval-requested':
      case 'approval-resolved':
        this.#callData(out, event.callId);
        break;
      case 'call-started': {
        const call = this.#call(event.callId);
        if (call?.resolvedArguments !== undefined) {
          this.#input(out, event.callId, event.toolName, call.resolvedArguments);
        }
        this.#callData(out, event.callId);
        break;
      }
      case 'call-progress':
        if (event.progress.message === PRELIMINARY_OUTPUT_MESSAGE) {
          this.#ensurePart(out, event.callId, event.toolName);
          out.push({
            type: 'tool-output-available',
            toolCallId: event.callId,
            output: event.progress.data ?? null,
            preliminary: true,
          });
        } else {
          this.#callData(out, event.callId);
        }
        break;
      case 'call-finished':
      case 'call-skipped':
        this.#answer(out, event.result);
        this.#callData(out, event.callId);
        break;
      case 'round-finished':
        out.push(...this.#roundText(event.round, event.message.content));
        out.push(...this.#text.close());
        this.#unfinishedCalls(out);
        for (const result of event.toolResults) this.#answer(out, result);
        // The round's end fixes which calls started while the model was still writing.
        for (const call of this.#view.rounds.find((each) => each.round === event.round)?.calls ??
          []) {
          this.#callData(out, call.id);
        }
        out.push({ type: 'finish-step' });
        break;
      case 'run-finished':
        this.#ended = true;
        out.push(...this.#text.close());
        this.#runEnd(out, event.output.stopReason, event.durationMs);
        out.push({ type: 'finish', finishReason: this.#finishReason() });
        break;
      case 'run-cancelled':
        this.#ended = true;
        out.push(...this.#text.close());
        this.#runEnd(out, 'cancelled', event.durationMs);
        out.push({ type: 'abort', reason: reasonText(event.reason) });
        break;
      case 'run-failed':
        this.#ended = true;
        out.push(...this.#text.close());
        out.push({ type: 'error', errorText: this.errorText(event.error, event.message) });
        break;
      default:
        break;
    }
    return out;
  }

  /** The `errorText` for an error (the `onError` option's, or the error's message). */
  errorText(error: unknown, fallback?: string): string {
    if (this.#options.onError !== undefined) return this.#options.onError(error);
    if (error instanceof Error) return error.message;
    return fallback ?? String(error);
  }

  #callDelta(out: MtpxUIMessageChunk[], event: Extract<AgentEvent, { type: 'tool-call-delta' }>) {
    let streaming = this.#streaming.get(event.index);
    if (streaming === undefined) {
      streaming = { started: false, pending: [] };
      this.#streaming.set(event.index, streaming);
    }
    streaming.callId ??= event.callId;
    streaming.toolName ??= event.toolName;
    if (event.argumentsDelta !== '') streaming.pending.push(event.argumentsDelta);
    if (!streaming.started && streaming.callId !== undefined && streaming.toolName !== undefined) {
      this.#startStreamingCall(out, streaming);
    } else if (streaming.started && streaming.callId !== undefined) {
      this.#flush(out, streaming.callId, streaming);
    }
  }

  #startStreamingCall(out: MtpxUIMessageChunk[], streaming: StreamingCall) {
    if (streaming.callId === undefined || streaming.toolName === undefined) return;
    streaming.started = true;
    this.#startPart(out, streaming.callId, streaming.toolName);
    this.#flush(out, streaming.callId, streaming);
  }

  /** `tool-input-start`, once per call: the part exists, its input not yet. */
  #startPart(out: MtpxUIMessageChunk[], callId: string, toolName: string) {
    if (this.#tools.has(callId)) return;
    this.#tools.set(callId, { toolName, answered: false });
    out.push({
      type: 'tool-input-start',
      toolCallId: callId,
      toolName,
      ...this.#dynamic(toolName),
    });
  }

  #flush(out: MtpxUIMessageChunk[], callId: string, streaming: StreamingCall) {
    for (const delta of streaming.pending) {
      out.push({ type: 'tool-input-delta', toolCallId: callId, inputTextDelta: delta });
    }
    streaming.pending = [];
  }

  /** Calls the model began but never finished writing (a turn cut off): shown as never run. */
  #unfinishedCalls(out: MtpxUIMessageChunk[]) {
    for (const streaming of this.#streaming.values()) {
      if (!streaming.started || streaming.callId === undefined) continue;
      const part = this.#tools.get(streaming.callId);
      if (part === undefined || part.answered || part.sentInput !== undefined) continue;
      part.answered = true;
      out.push({
        type: 'tool-input-error',
        toolCallId: streaming.callId,
        toolName: part.toolName,
        ...this.#dynamic(part.toolName),
        input: undefined,
        errorText: 'Never run: the response ended before the call was complete.',
      });
    }
    this.#streaming = new Map();
  }

  /** `tool-input-available`, when the input differs from what the part shows. */
  #input(out: MtpxUIMessageChunk[], callId: string, toolName: string, input: JsonValue) {
    let part = this.#tools.get(callId);
    if (part === undefined) {
      part = { toolName, answered: false };
      this.#tools.set(callId, part);
    }
    const text = JSON.stringify(input);
    if (part.answered || part.sentInput === text) return;
    part.sentInput = text;
    out.push({
      type: 'tool-input-available',
      toolCallId: callId,
      toolName,
      ...this.#dynamic(toolName),
      input,
    });
  }

  #dynamic(toolName: string): { dynamic?: true } {
    return this.#options.dynamicTools?.(toolName) === true ? { dynamic: true } : {};
  }

  #ensurePart(out: MtpxUIMessageChunk[], callId: string, toolName: string) {
    const part = this.#tools.get(callId);
    if (part?.sentInput !== undefined) return;
    const call = this.#call(callId);
    const args = call?.resolvedArguments ?? call?.call?.arguments ?? {};
    this.#input(out, callId, toolName, this.#known(args as JsonValue));
  }

  #answer(out: MtpxUIMessageChunk[], result: ToolResult) {
    if (this.#tools.get(result.call_id)?.answered === true) return;
    this.#ensurePart(out, result.call_id, result.tool_name);
    const part = this.#tools.get(result.call_id);
    if (part !== undefined) part.answered = true;
    if (result.success) {
      out.push({
        type: 'tool-output-available',
        toolCallId: result.call_id,
        output: result.output,
      });
    } else {
      const code = result.error_code === undefined ? '' : ` (${result.error_code})`;
      out.push({
        type: 'tool-output-error',
        toolCallId: result.call_id,
        errorText: `${result.error ?? 'The call failed.'}${code}`,
      });
    }
  }

  /** A round's text when none streamed (a `run()`'s events): one whole text part. */
  #roundText(round: number, content: string | null): MtpxUIMessageChunk[] {
    const view = this.#view.rounds.find((each) => each.round === round);
    const streamed = view?.segments.some((segment) => segment.kind === 'text') === true;
    if (streamed || content === null || content === '') return [];
    return [...this.#text.text(this.#view.runId, round, content), ...this.#text.close()];
  }

  #callData(out: MtpxUIMessageChunk[], callId: string) {
    const call = this.#call(callId);
    if (call !== undefined) this.#data(out, 'mtpx-call', callId, callData(call));
  }

  #edges(out: MtpxUIMessageChunk[], callId: string) {
    for (const edge of this.#view.edges) {
      const id = `${edge.from}->${edge.to}`;
      if (edge.to !== callId || this.#sentEdges.has(id)) continue;
      this.#sentEdges.add(id);
      this.#data(out, 'mtpx-edge', id, edge);
    }
  }

  #runEnd(out: MtpxUIMessageChunk[], stopReason: string, durationMs: number) {
    const view = this.#view;
    this.#data(out, 'mtpx-run', view.runId, {
      runId: view.runId,
      provider: view.provider ?? '',
      model: view.model ?? '',
      eagerDispatch: view.eagerDispatch === true,
      stopReason,
      ...(view.usage === undefined ? {} : { usage: view.usage }),
      durationMs,
    });
  }

  #data<NAME extends keyof MtpxDataTypes>(
    out: MtpxUIMessageChunk[],
    name: NAME,
    id: string,
    data: MtpxDataTypes[NAME],
  ) {
    if (this.#options.sendData === false) return;
    const key = `${name}:${id}`;
    const text = JSON.stringify(data);
    if (this.#sentData.get(key) === text) return;
    this.#sentData.set(key, text);
    out.push({ type: `data-${name}`, id, data } as MtpxUIMessageChunk);
  }

  #call(callId: string): CallView | undefined {
    for (let index = this.#view.rounds.length - 1; index >= 0; index -= 1) {
      const call = this.#view.rounds[index]?.calls.find((each) => each.id === callId);
      if (call !== undefined) return call;
    }
    return undefined;
  }

  /** Arguments with each `$ref` whose output is known replaced by it. */
  #known(args: JsonValue): JsonValue {
    return resolveKnownReferences(args, (id) => {
      const call = this.#call(id);
      return call?.status === 'succeeded' ? call.output : undefined;
    });
  }

  #finishReason(): UIFinishReason {
    const last = this.#view.rounds.at(-1)?.finishReason;
    return last === undefined ? 'other' : toUIFinishReason(last);
  }
}
