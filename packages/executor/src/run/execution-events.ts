import type { PlanIssue, ToolResult } from '@mtpx/protocol';
import { ExecutorError } from '../errors';
import { EventChannel } from '../events/event-channel';
import type {
  CallFinishedEvent,
  CallSkippedEvent,
  CallThrottledEvent,
  ExecutorEvent,
  ExecutorEventHandler,
  PlanFinishedEvent,
  PlanStartedEvent,
} from '../events/events';
import type { CallNode } from './call-node';

/** What an execution knows about its plan when it starts. */
export interface PlanInfo {
  callCount?: number;
  issues?: PlanIssue[];
  /** Buffer events from the start (for `stream`). */
  bufferEvents?: boolean;
}

function eventsAlreadyIterated(): ExecutorError {
  return new ExecutorError({
    code: 'events_already_iterated',
    message:
      "A run's events can be iterated once; pass `onEvent` to observe them from several places.",
  });
}

/**
 * Where a run's events go: the caller's `onEvent`, and a buffered channel once someone
 * reads `run.events`. `listening` is false while neither exists, and then callers build
 * no event at all. A handler that throws is remembered, not rethrown, so the run keeps
 * its state; the run reports it when it is done.
 */
export class RunEvents {
  /** True when some event receiver exists. */
  listening: boolean;
  readonly #runId: string | undefined;
  readonly #handler: ExecutorEventHandler | undefined;
  readonly #plan: PlanInfo;
  #channel: EventChannel<ExecutorEvent> | undefined;
  #started: PlanStartedEvent | undefined;
  #closed = false;
  #handlerFailed = false;
  #handlerError: unknown;

  constructor(
    runId: string | undefined,
    handler: ExecutorEventHandler | undefined,
    plan: PlanInfo,
  ) {
    this.#runId = runId;
    this.#handler = handler;
    this.#plan = plan;
    this.listening = handler !== undefined;
    if (handler !== undefined) this.#deliver(this.#planStarted());
  }

  /** The buffered iterable, opened (with `plan-started` first) on first use. */
  channel(): EventChannel<ExecutorEvent> {
    if (this.#channel === undefined) {
      this.#channel = new EventChannel<ExecutorEvent>({ alreadyIterated: eventsAlreadyIterated });
      this.listening = true;
      this.#channel.push(this.#planStarted());
      if (this.#closed) this.#channel.close();
    }
    return this.#channel;
  }

  /** Sends an event to every receiver, stamped with the run id. */
  emit(event: ExecutorEvent): void {
    if (this.#runId !== undefined) event.runId = this.#runId;
    if (this.#handler !== undefined) this.#deliver(event);
    this.#channel?.push(event);
  }

  /** Ends the channel after the last event. */
  close(): void {
    this.#closed = true;
    this.#channel?.close();
  }

  /** The first error an `onEvent` handler threw, if any. */
  handlerFailure(): { error: unknown } | undefined {
    return this.#handlerFailed ? { error: this.#handlerError } : undefined;
  }

  /** The `plan-started` event, made once: the handler gets it at once, a channel when opened. */
  #planStarted(): PlanStartedEvent {
    if (this.#started === undefined) {
      const event: PlanStartedEvent = {
        type: 'plan-started',
        at: 0,
        issues: this.#plan.issues ?? [],
      };
      if (this.#plan.callCount !== undefined) event.callCount = this.#plan.callCount;
      if (this.#runId !== undefined) event.runId = this.#runId;
      this.#started = event;
    }
    return this.#started;
  }

  #deliver(event: ExecutorEvent): void {
    try {
      (this.#handler as ExecutorEventHandler)(event);
    } catch (error) {
      if (!this.#handlerFailed) {
        this.#handlerFailed = true;
        this.#handlerError = error;
      }
    }
  }
}

/** The closing summary of a run. */
export function planFinishedEvent(results: ToolResult[], at: number): PlanFinishedEvent {
  let succeeded = 0;
  let skipped = 0;
  for (const result of results) {
    if (result.success) succeeded++;
    else if (result.skipped) skipped++;
  }
  return {
    type: 'plan-finished',
    at,
    durationMs: at,
    succeeded,
    failed: results.length - succeeded - skipped,
    skipped,
    results,
  };
}

/** The event of a dispatched call that is done. */
export function callFinishedEvent(
  node: CallNode,
  result: ToolResult,
  at: number,
  durationMs: number,
): CallFinishedEvent {
  const event: CallFinishedEvent = {
    type: 'call-finished',
    at,
    callId: node.id,
    toolName: node.toolName,
    durationMs: durationMs - node.approvalMs,
    success: result.success,
    cached: result.cached,
    result,
  };
  if (node.approvalMs > 0) event.approvalMs = node.approvalMs;
  if (result.approval !== undefined) event.approval = result.approval;
  if (result.error_code !== undefined) event.errorCode = result.error_code;
  return event;
}

/** The event of a call that was never dispatched. */
export function callSkippedEvent(node: CallNode, result: ToolResult, at: number): CallSkippedEvent {
  return {
    type: 'call-skipped',
    at,
    callId: node.id,
    toolName: node.toolName,
    errorCode: result.error_code ?? 'tool_error',
    error: result.error ?? '',
    result,
  };
}

/** `call-throttled`: `node` waits for a slot of the tool limit `limit`. */
export function throttledEvent(
  node: CallNode,
  limit: string,
  limits: { capOf(limit: string): number } | undefined,
  at: number,
): CallThrottledEvent {
  return {
    type: 'call-throttled',
    at,
    callId: node.id,
    toolName: node.toolName,
    limit,
    cap: limits?.capOf(limit) ?? 0,
  };
}
