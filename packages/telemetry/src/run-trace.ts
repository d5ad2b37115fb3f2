import type {
  AgentEvent,
  RoundFinishedEvent,
  RunFailedEvent,
  RunStartedEvent,
  ToolCallReadyEvent,
} from '@mtpx/agent';
import type { CallFinishedEvent, CallSkippedEvent } from '@mtpx/executor';
import { findRefs } from '@mtpx/protocol';
import {
  type Context,
  context as contextApi,
  type Link,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import { ATTRIBUTES as A, contentText, primitiveAttributes, usageAttributes } from './attributes';

/** What a run's trace needs to know from the handler's options. */
export interface RunTraceSettings {
  tracer: Tracer;
  captureContent: boolean;
  /** The parent of the run's span; the active context when the run started, by default. */
  parent: Context;
}

interface CallState {
  callId: string;
  toolName: string;
  readyAt?: number;
  references: string[];
  arguments?: unknown;
  span?: Span;
  attempts: number;
  heldReason?: string;
  startAt?: number;
}

interface ChatState {
  span: Span;
  round: number;
  startAt: number;
  /**
   * Tool spans done before the model call is: ended when the round ends, once the model's
   * end is known, so each can say whether it started while the model was still writing.
   */
  pending: Array<{ call: CallState; endAt: number }>;
}

/**
 * The spans of one run, made from its events as they come: the `invoke_agent` span for
 * the run, a `chat` span for each model call, an `execute_tool` span for each call with a
 * link to every call its `$ref`s name. Times are the events' own (`at` on the run's
 * clock), so the spans line up with the Inspector's timeline.
 */
export class RunTrace {
  readonly #settings: RunTraceSettings;
  /** Epoch milliseconds of the run's `at = 0`. */
  readonly #origin: number;
  readonly #runSpan: Span | undefined;
  readonly #runContext: Context;
  readonly #calls = new Map<string, CallState>();
  #chat: ChatState | undefined;
  #provider = '';

  /** True when the trace has an `invoke_agent` span (it began with `run-started`). */
  get hasRunSpan(): boolean {
    return this.#runSpan !== undefined;
  }
  #model = '';

  constructor(settings: RunTraceSettings, first: { at: number }, started?: RunStartedEvent) {
    this.#settings = settings;
    this.#origin = performance.timeOrigin + performance.now() - first.at;
    if (started === undefined) {
      this.#runContext = settings.parent;
      return;
    }
    this.#provider = started.provider;
    this.#model = started.model;
    const span = settings.tracer.startSpan(
      started.agentName === undefined ? 'invoke_agent' : `invoke_agent ${started.agentName}`,
      {
        kind: SpanKind.INTERNAL,
        startTime: this.#time(started.at),
        attributes: {
          [A.operationName]: 'invoke_agent',
          [A.providerName]: started.provider,
          [A.requestModel]: started.model,
          [A.runId]: started.runId,
          [A.streaming]: started.streaming,
          [A.eagerDispatch]: started.eagerDispatch,
          ...(started.agentName === undefined ? {} : { [A.agentName]: started.agentName }),
          ...(started.sessionId === undefined ? {} : { [A.conversationId]: started.sessionId }),
          ...(settings.captureContent
            ? {
                [A.inputMessages]: contentText([
                  { role: 'user', parts: [{ type: 'text', content: started.input }] },
                ]),
              }
            : {}),
        },
      },
      settings.parent,
    );
    this.#runSpan = span;
    this.#runContext = trace.setSpan(settings.parent, span);
  }

  #time(at: number): number {
    return this.#origin + at;
  }

  #call(callId: string, toolName = ''): CallState {
    let call = this.#calls.get(callId);
    if (call === undefined) {
      call = { callId, toolName, references: [], attempts: 0 };
      this.#calls.set(callId, call);
    }
    if (toolName !== '') call.toolName = toolName;
    return call;
  }

  /** Turns one event into span work; returns true once the run is over. */
  handle(event: AgentEvent | { type: string; at: number; [key: string]: unknown }): boolean {
    const known = event as AgentEvent;
    switch (known.type) {
      case 'run-started':
        return false;
      case 'round-started':
        this.#startChat(known.round, known.at);
        return false;
      case 'tool-call-ready':
        this.#ready(known);
        return false;
      case 'call-started':
        this.#startTool(known.callId, known.toolName, known.at);
        return false;
      case 'call-retried': {
        const call = this.#call(known.callId, known.toolName);
        call.attempts = known.attempt + 1;
        call.span?.addEvent(
          'mtpx.tool.retry',
          { [A.attempt]: known.attempt, 'mtpx.tool.retry.delay_ms': known.delayMs },
          this.#time(known.at),
        );
        return false;
      }
      case 'call-progress':
        // MCP input rounds and tool progress arrive here.
        this.#call(known.callId, known.toolName).span?.addEvent(
          'mtpx.tool.progress',
          {
            ...(known.progress.message === undefined
              ? {}
              : { 'mtpx.progress.message': known.progress.message }),
            ...(known.progress.completed === undefined
              ? {}
              : { 'mtpx.progress.completed': known.progress.completed }),
            ...(known.progress.total === undefined
              ? {}
              : { 'mtpx.progress.total': known.progress.total }),
          },
          this.#time(known.at),
        );
        return false;
      case 'call-finished':
        this.#finishTool(known);
        return false;
      case 'call-skipped':
        this.#skipTool(known);
        return false;
      case 'round-finished':
        this.#finishChat(known);
        return false;
      case 'run-finished':
      case 'run-cancelled': {
        const { output } = known;
        this.#closeOpen(known.at, known.type === 'run-cancelled' ? 'cancelled' : undefined);
        this.#runSpan?.setAttributes({
          ...usageAttributes(output.usage),
          [A.stopReason]: output.stop_reason,
          [A.rounds]: output.rounds,
        });
        if (known.type === 'run-cancelled') {
          this.#runSpan?.setAttribute(A.errorType, 'cancelled');
          this.#runSpan?.setStatus({ code: SpanStatusCode.ERROR, message: 'cancelled' });
        }
        this.#runSpan?.end(this.#time(known.at));
        return true;
      }
      case 'run-failed':
        this.#failRun(known);
        return true;
      case 'text-delta':
      case 'tool-call-delta':
      case 'plan-started':
      case 'plan-finished':
      case 'cache-failed':
        return false;
      default:
        this.#other(event as { type: string; at: number; [key: string]: unknown });
        return false;
    }
  }

  #startChat(round: number, at: number): void {
    const span = this.#settings.tracer.startSpan(
      this.#model === '' ? 'chat' : `chat ${this.#model}`,
      {
        kind: SpanKind.CLIENT,
        startTime: this.#time(at),
        attributes: {
          [A.operationName]: 'chat',
          [A.providerName]: this.#provider,
          [A.requestModel]: this.#model,
          [A.round]: round,
        },
      },
      this.#runContext,
    );
    this.#chat = { span, round, startAt: at, pending: [] };
  }

  #ready(event: ToolCallReadyEvent): void {
    const call = this.#call(event.call.id, event.call.name);
    call.readyAt = event.at;
    call.arguments = event.call.arguments;
    call.references = [...new Set([...findRefs(event.call.arguments), ...event.call.depends_on])];
  }

  #startTool(callId: string, toolName: string, at: number): Span {
    const call = this.#call(callId, toolName);
    if (call.span !== undefined) return call.span;
    const links: Link[] = [];
    for (const reference of call.references) {
      const target = this.#calls.get(reference)?.span;
      if (target !== undefined)
        links.push({ context: target.spanContext(), attributes: { [A.linkKind]: '$ref' } });
    }
    call.attempts = Math.max(call.attempts, 1);
    call.startAt = at;
    call.span = this.#settings.tracer.startSpan(
      toolName === '' ? 'execute_tool' : `execute_tool ${toolName}`,
      {
        kind: SpanKind.INTERNAL,
        startTime: this.#time(at),
        links,
        attributes: {
          [A.operationName]: 'execute_tool',
          [A.toolName]: toolName,
          [A.toolType]: 'function',
          [A.toolCallId]: callId,
          ...(call.references.length > 0 ? { [A.references]: call.references } : {}),
          ...(call.readyAt === undefined ? {} : { [A.waitMs]: Math.max(0, at - call.readyAt) }),
          ...(call.heldReason === undefined ? {} : { [A.heldReason]: call.heldReason }),
          ...(this.#settings.captureContent && call.arguments !== undefined
            ? { [A.toolCallArguments]: contentText(call.arguments) }
            : {}),
        },
      },
      this.#runContext,
    );
    return call.span;
  }

  #finishTool(event: CallFinishedEvent): void {
    const call = this.#call(event.callId, event.toolName);
    const span = this.#startTool(event.callId, event.toolName, event.at - event.durationMs);
    const outcome = event.success ? (event.cached ? 'cached' : 'success') : 'error';
    span.setAttributes({
      [A.attempt]: Math.max(call.attempts, 1),
      [A.cached]: event.cached,
      [A.outcome]: outcome,
      ...(event.approval === undefined ? {} : { [A.approval]: event.approval }),
      ...(event.errorCode === undefined ? {} : { [A.errorType]: event.errorCode }),
      ...(this.#settings.captureContent
        ? {
            [A.toolCallResult]: contentText(
              event.success ? event.result.output : (event.result.error ?? null),
            ),
          }
        : {}),
    });
    if (!event.success)
      span.setStatus({ code: SpanStatusCode.ERROR, message: event.errorCode ?? 'tool_error' });
    this.#endTool(call, event.at);
  }

  #endTool(call: CallState, at: number): void {
    if (this.#chat !== undefined) this.#chat.pending.push({ call, endAt: at });
    else call.span?.end(this.#time(at));
  }

  #skipTool(event: CallSkippedEvent): void {
    const call = this.#call(event.callId, event.toolName);
    const span = this.#startTool(event.callId, event.toolName, event.at);
    span.setAttributes({
      [A.attempt]: 0,
      [A.cached]: false,
      [A.outcome]: 'skipped',
      [A.errorType]: event.errorCode,
    });
    span.setStatus({ code: SpanStatusCode.ERROR, message: event.errorCode });
    call.attempts = 0;
    this.#endTool(call, event.at);
  }

  #finishChat(event: RoundFinishedEvent): void {
    const chat = this.#chat;
    if (chat === undefined) return;
    this.#endChat(chat, event);
  }

  #endChat(chat: ChatState, event: RoundFinishedEvent): void {
    chat.span.setAttributes({
      [A.responseFinishReasons]: [event.finishReason],
      ...usageAttributes(event.usage),
      ...(this.#settings.captureContent
        ? { [A.outputMessages]: contentText([outputMessage(event)]) }
        : {}),
    });
    const modelEnd = chat.startAt + event.modelMs;
    chat.span.end(this.#time(modelEnd));
    this.#chat = undefined;
    for (const { call, endAt } of chat.pending) {
      call.span?.setAttribute(A.startedDuringStream, (call.startAt ?? modelEnd) < modelEnd);
      call.span?.end(this.#time(endAt));
    }
  }

  /** Calls and a model call still open when the run ends are closed with the reason. */
  #closeOpen(at: number, reason: string | undefined): void {
    if (this.#chat !== undefined) {
      if (reason !== undefined) {
        this.#chat.span.setAttribute(A.errorType, reason);
        this.#chat.span.setStatus({ code: SpanStatusCode.ERROR, message: reason });
      }
      this.#chat.span.end(this.#time(at));
      for (const { call, endAt } of this.#chat.pending) call.span?.end(this.#time(endAt));
      this.#chat = undefined;
    }
    for (const call of this.#calls.values()) {
      if (call.span === undefined || !call.span.isRecording()) continue;
      call.span.setAttribute(A.errorType, reason ?? 'unfinished');
      call.span.setStatus({ code: SpanStatusCode.ERROR, message: reason ?? 'unfinished' });
      call.span.end(this.#time(at));
    }
  }

  #failRun(event: RunFailedEvent): void {
    this.#closeOpen(event.at, event.code ?? 'run_failed');
    const span = this.#runSpan;
    if (span === undefined) return;
    span.setAttribute(A.errorType, event.code ?? 'run_failed');
    if (event.error instanceof Error) span.recordException(event.error, this.#time(event.at));
    span.setStatus({ code: SpanStatusCode.ERROR, message: event.message });
    span.end(this.#time(event.at));
  }

  /**
   * Events of other branches and later versions: approvals, held calls and server-side
   * tools by name; anything else as a span event on the run's span, its primitive fields kept.
   */
  #other(event: { type: string; at: number; [key: string]: unknown }): void {
    const time = this.#time(typeof event.at === 'number' ? event.at : 0);
    const callId = typeof event.callId === 'string' ? event.callId : undefined;
    if (callId !== undefined) {
      const call = this.#call(callId, typeof event.toolName === 'string' ? event.toolName : '');
      if (event.type === 'call-held' && typeof event.reason === 'string')
        call.heldReason = event.reason;
      if (event.type === 'approval-resolved') {
        call.span?.setAttributes({
          ...(typeof event.approved === 'boolean' ? { [A.approved]: event.approved } : {}),
          ...(typeof event.waitMs === 'number' ? { [A.approvalWaitMs]: event.waitMs } : {}),
        });
      }
      if (call.span !== undefined) {
        call.span.addEvent(`mtpx.${event.type}`, primitiveAttributes(event), time);
        return;
      }
    }
    if (event.type === 'server-tool-used' && this.#chat !== undefined) {
      this.#chat.span.addEvent('mtpx.server-tool-used', primitiveAttributes(event), time);
      return;
    }
    if (event.type === 'reasoning-delta') return;
    (this.#runSpan ?? this.#chat?.span)?.addEvent(
      `mtpx.${event.type}`,
      primitiveAttributes(event),
      time,
    );
  }
}

function outputMessage(event: RoundFinishedEvent): unknown {
  const parts: unknown[] = [];
  if (event.message.content) parts.push({ type: 'text', content: event.message.content });
  for (const call of event.message.tool_calls ?? [])
    parts.push({ type: 'tool_call', id: call.id, name: call.name, arguments: call.arguments });
  return { role: 'assistant', parts, finish_reason: event.finishReason };
}

/** The active context now (the parent of runs that start without one given). */
export function activeContext(): Context {
  return contextApi.active();
}
