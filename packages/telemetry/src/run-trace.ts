import type { AgentEvent, RoundFinishedEvent, RunFailedEvent, RunStartedEvent } from '@mtpx/agent';
import {
  type CallView,
  callViewOf,
  createRunView,
  type RunView,
  type RunViewEvent,
  reduceRunView,
  type UnknownEvent,
  unknownEvent,
} from '@mtpx/agent/run-view';
import type { CallFinishedEvent, CallSkippedEvent } from '@mtpx/executor';
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
import { outputMessage, progressAttributes, runSpanAttributes } from './span-attributes';

/** What a run's trace needs to know from the handler's options. */
export interface RunTraceSettings {
  tracer: Tracer;
  captureContent: boolean;
  /** The parent of the run's span; the active context when the run started, by default. */
  parent: Context;
}

/** A call's span and where it began on the run's clock. */
interface ToolSpan {
  span: Span;
  startAt: number;
}

interface ChatState {
  span: Span;
  /**
   * Tool spans done before the model call is: ended when the round ends, once the model's
   * end is known, so each can say whether it started while the model was still writing.
   */
  pending: Array<{ tool: ToolSpan; endAt: number }>;
}

/**
 * The spans of one run, drawn from the agent's run view as its events come: the
 * `invoke_agent` span for the run, a `chat` span for each model call, an `execute_tool`
 * span for each call with a link to every call its `$ref`s name. Times are the events' own
 * (`at` on the run's clock), so the spans line up with the Inspector's timeline.
 */
export class RunTrace {
  readonly #settings: RunTraceSettings;
  /** Epoch milliseconds of the run's `at = 0`. */
  readonly #origin: number;
  readonly #runSpan: Span | undefined;
  readonly #runContext: Context;
  /** Tool spans by round and call id. */
  readonly #tools = new Map<string, ToolSpan>();
  #view: RunView = createRunView();
  #chat: ChatState | undefined;

  /** True when the trace has an `invoke_agent` span (it began with `run-started`). */
  get hasRunSpan(): boolean {
    return this.#runSpan !== undefined;
  }

  constructor(settings: RunTraceSettings, first: { at: number }, started?: RunStartedEvent) {
    this.#settings = settings;
    this.#origin = performance.timeOrigin + performance.now() - first.at;
    if (started === undefined) {
      this.#runContext = settings.parent;
      return;
    }
    const span = settings.tracer.startSpan(
      started.agentName === undefined ? 'invoke_agent' : `invoke_agent ${started.agentName}`,
      {
        kind: SpanKind.INTERNAL,
        startTime: this.#time(started.at),
        attributes: runSpanAttributes(started, settings.captureContent),
      },
      settings.parent,
    );
    this.#runSpan = span;
    this.#runContext = trace.setSpan(settings.parent, span);
  }

  #time(at: number): number {
    return this.#origin + at;
  }

  #callOf(event: { callId: string; round?: number }): CallView | undefined {
    return callViewOf(this.#view, event.callId, event.round);
  }

  #toolOf(event: { callId: string; round?: number }): ToolSpan | undefined {
    const call = this.#callOf(event);
    return call === undefined ? undefined : this.#tools.get(`${call.round} ${call.id}`);
  }

  /** Turns one event into span work; returns true once the run is over. */
  handle(input: RunViewEvent): boolean {
    this.#view = reduceRunView(this.#view, input);
    const event = input as AgentEvent;
    switch (event.type) {
      case 'round-started':
        this.#startChat(event.round, event.at);
        return false;
      case 'call-started':
        this.#startTool(event, event.at);
        return false;
      case 'call-retried':
        this.#toolOf(event)?.span.addEvent(
          'mtpx.tool.retry',
          { [A.attempt]: event.attempt, 'mtpx.tool.retry.delay_ms': event.delayMs },
          this.#time(event.at),
        );
        return false;
      case 'call-progress':
        // MCP input rounds and tool progress arrive here.
        this.#toolOf(event)?.span.addEvent(
          'mtpx.tool.progress',
          progressAttributes(event.progress),
          this.#time(event.at),
        );
        return false;
      case 'call-finished':
        this.#finishTool(event);
        return false;
      case 'call-skipped':
        this.#skipTool(event);
        return false;
      case 'call-held':
      case 'call-released':
      case 'call-throttled':
      case 'approval-requested':
      case 'approval-resolved':
        this.#callEvent(event);
        return false;
      case 'server-tool-used':
        if (this.#chat !== undefined)
          this.#chat.span.addEvent(
            'mtpx.server-tool-used',
            primitiveAttributes(event),
            this.#time(event.at),
          );
        else this.#runEvent(event);
        return false;
      case 'round-finished':
        this.#finishChat(event);
        return false;
      case 'run-finished':
      case 'run-cancelled': {
        const { output } = event;
        const cancelled = event.type === 'run-cancelled';
        this.#closeOpen(event.at, cancelled ? 'cancelled' : undefined);
        this.#runSpan?.setAttributes({
          ...usageAttributes(output.usage),
          [A.stopReason]: this.#view.stopReason ?? output.stopReason,
          [A.rounds]: output.rounds,
        });
        if (cancelled) {
          this.#runSpan?.setAttribute(A.errorType, 'cancelled');
          this.#runSpan?.setStatus({ code: SpanStatusCode.ERROR, message: 'cancelled' });
        }
        this.#runSpan?.end(this.#time(event.at));
        return true;
      }
      case 'run-failed':
        this.#failRun(event);
        return true;
      // The run view holds what these say; no span changes with them.
      case 'run-started':
      case 'tool-call-ready':
      case 'text-delta':
      case 'reasoning-delta':
      case 'tool-call-delta':
      case 'plan-started':
      case 'plan-finished':
      case 'cache-failed':
        return false;
      default: {
        const other = unknownEvent(event);
        if (typeof other.callId === 'string')
          this.#callEvent(other as UnknownEvent & { callId: string });
        else this.#runEvent(other);
        return false;
      }
    }
  }

  #startChat(round: number, at: number): void {
    const model = this.#view.model ?? '';
    const span = this.#settings.tracer.startSpan(
      model === '' ? 'chat' : `chat ${model}`,
      {
        kind: SpanKind.CLIENT,
        startTime: this.#time(at),
        attributes: {
          [A.operationName]: 'chat',
          [A.providerName]: this.#view.provider ?? '',
          [A.requestModel]: model,
          [A.round]: round,
        },
      },
      this.#runContext,
    );
    this.#chat = { span, pending: [] };
  }

  /** The call's span, started now when it has none (a call finished or skipped unstarted). */
  #startTool(event: { callId: string; toolName: string; round?: number }, at: number): ToolSpan {
    const call = this.#callOf(event);
    const key = `${call?.round} ${event.callId}`;
    const started = this.#tools.get(key);
    if (started !== undefined) return started;
    const references = call?.references ?? [];
    const links: Link[] = [];
    for (const reference of references) {
      const target = callViewOf(this.#view, reference, call?.round);
      const span = target && this.#tools.get(`${target.round} ${target.id}`)?.span;
      if (span !== undefined)
        links.push({ context: span.spanContext(), attributes: { [A.linkKind]: '$ref' } });
    }
    const { toolName, callId } = event;
    const args = call?.call?.arguments;
    const span = this.#settings.tracer.startSpan(
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
          ...(references.length > 0 ? { [A.references]: references } : {}),
          ...(call?.readyAt === undefined ? {} : { [A.waitMs]: Math.max(0, at - call.readyAt) }),
          ...(call?.heldReason === undefined ? {} : { [A.heldReason]: call.heldReason }),
          ...(this.#settings.captureContent && args !== undefined
            ? { [A.toolCallArguments]: contentText(args) }
            : {}),
        },
      },
      this.#runContext,
    );
    const tool = { span, startAt: at };
    this.#tools.set(key, tool);
    return tool;
  }

  #finishTool(event: CallFinishedEvent): void {
    const tool = this.#startTool(event, event.at - event.durationMs);
    const outcome = event.success ? (event.cached ? 'cached' : 'success') : 'error';
    tool.span.setAttributes({
      [A.attempt]: Math.max(this.#callOf(event)?.attempts ?? 0, 1),
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
      tool.span.setStatus({ code: SpanStatusCode.ERROR, message: event.errorCode ?? 'tool_error' });
    this.#endTool(tool, event.at);
  }

  #skipTool(event: CallSkippedEvent): void {
    const tool = this.#startTool(event, event.at);
    tool.span.setAttributes({
      [A.attempt]: 0,
      [A.cached]: false,
      [A.outcome]: 'skipped',
      [A.errorType]: event.errorCode,
    });
    tool.span.setStatus({ code: SpanStatusCode.ERROR, message: event.errorCode });
    this.#endTool(tool, event.at);
  }

  #endTool(tool: ToolSpan, at: number): void {
    if (this.#chat !== undefined) this.#chat.pending.push({ tool, endAt: at });
    else tool.span.end(this.#time(at));
  }

  #finishChat(event: RoundFinishedEvent): void {
    const chat = this.#chat;
    if (chat === undefined) return;
    chat.span.setAttributes({
      [A.responseFinishReasons]: [event.finishReason],
      ...usageAttributes(event.usage),
      ...(this.#settings.captureContent
        ? { [A.outputMessages]: contentText([outputMessage(event)]) }
        : {}),
    });
    const round = this.#view.rounds.find((candidate) => candidate.round === event.round);
    const modelEnd = round?.modelEndAt ?? event.at;
    chat.span.end(this.#time(modelEnd));
    this.#chat = undefined;
    for (const { tool, endAt } of chat.pending) {
      tool.span.setAttribute(A.startedDuringStream, tool.startAt < modelEnd);
      tool.span.end(this.#time(endAt));
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
      for (const { tool, endAt } of this.#chat.pending) tool.span.end(this.#time(endAt));
      this.#chat = undefined;
    }
    for (const { span } of this.#tools.values()) {
      if (!span.isRecording()) continue;
      span.setAttribute(A.errorType, reason ?? 'unfinished');
      span.setStatus({ code: SpanStatusCode.ERROR, message: reason ?? 'unfinished' });
      span.end(this.#time(at));
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
   * Held calls, approvals, and calls' events of later versions: a span event on the call's
   * span once it has one (approval answers as attributes too), on the run's before.
   */
  #callEvent(event: (AgentEvent | UnknownEvent) & { callId: string }): void {
    const tool = this.#toolOf(event as { callId: string; round?: number });
    if (event.type === 'approval-resolved')
      tool?.span.setAttributes({
        ...(typeof event.approved === 'boolean' ? { [A.approved]: event.approved } : {}),
        ...(typeof event.waitMs === 'number' ? { [A.approvalWaitMs]: event.waitMs } : {}),
        ...(typeof event.approvalId === 'string' ? { [A.approvalId]: event.approvalId } : {}),
        ...(event.pending === true ? { [A.approvalPending]: true } : {}),
      });
    if (event.type === 'call-throttled' && typeof event.limit === 'string')
      tool?.span.setAttribute(A.throttledBy, event.limit);
    if (tool === undefined) this.#runEvent(event);
    else
      tool.span.addEvent(`mtpx.${event.type}`, primitiveAttributes(event), this.#eventTime(event));
  }

  /** An event as a span event on the run's span (the model call's, without a run span), its primitive fields kept. */
  #runEvent(event: AgentEvent | UnknownEvent): void {
    (this.#runSpan ?? this.#chat?.span)?.addEvent(
      `mtpx.${event.type}`,
      primitiveAttributes(event),
      this.#eventTime(event),
    );
  }

  #eventTime(event: { at?: unknown }): number {
    return this.#time(typeof event.at === 'number' ? event.at : 0);
  }
}

/** The active context now (the parent of runs that start without one given). */
export function activeContext(): Context {
  return contextApi.active();
}
