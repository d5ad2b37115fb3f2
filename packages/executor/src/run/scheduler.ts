import type { JsonValue, ToolCall, ToolResult } from '@mtpx/protocol';
import { pendingResult, waitingResult } from '../approvals/pending-results';
import type { ApprovalRequest, PlanApprovals } from '../approvals/plan-approvals';
import type { CallHost } from '../call/call-host';
import { runCall } from '../call/call-runner';
import { copiedResult, errorResult } from '../call/tool-results';
import { ThrottledCalls } from '../concurrency/throttled-calls';
import type { ExecutorEvent, ExecutorEventHandler } from '../events/events';
import type { ExecutorServices } from '../executor-services';
import type { ToolProgress } from '../tools/define-tool';
import { appended, BatchGate, type CallNode, CallState } from './call-node';
import {
  callFinishedEvent,
  callSkippedEvent,
  type PlanInfo,
  RunEvents,
  throttledEvent,
} from './execution-events';
import { cancelledMessage, dependencyFailedMessage } from './execution-messages';
import { IdenticalCalls } from './identical-calls';
import type { ResultRecorder } from './plan-execution-types';

/** What a scheduler is made with (internal). */
export interface SchedulerOptions {
  runId: string | undefined;
  onEvent: ExecutorEventHandler | undefined;
  onResult: ResultRecorder | undefined;
  approvals: PlanApprovals | undefined;
  plan: PlanInfo;
}

/**
 * The scheduling core of a plan execution (internal): queued calls dispatched up to the
 * concurrency cap, results settled and propagated to dependents, followers, copies and
 * batch gates, approval waits without a slot, events. What calls are added and how they
 * are linked is {@link Execution}'s part.
 */
export abstract class Scheduler implements CallHost {
  readonly runId: string | undefined;
  readonly signal: AbortSignal;
  readonly services: ExecutorServices;
  readonly approvals: PlanApprovals | undefined;
  protected readonly controller = new AbortController();
  protected readonly startedAt = performance.now();
  protected readonly nodes: CallNode[] = [];
  protected readonly sink: RunEvents;
  protected readonly onResult: ResultRecorder | undefined;
  protected settled = 0;
  protected aborted = false;
  protected abortReason: unknown;
  protected propagating = false;
  protected hookFailed = false;
  protected hookError: unknown;
  #identical: IdenticalCalls | undefined;
  #queue: CallNode[] = [];
  #queueHead = 0;
  #running = 0;
  #draining = false;
  readonly #justSettled: CallNode[] = [];
  /** Calls back from an approval wait, waiting for a concurrency slot (served first). */
  readonly #resuming: Array<{ node: CallNode; resolve: () => void }> = [];
  /** Ready calls waiting for a slot of a full tool limit (when the executor has limits). */
  readonly #throttled: ThrottledCalls | undefined;

  constructor(services: ExecutorServices, options: SchedulerOptions) {
    this.services = services;
    this.runId = options.runId;
    this.signal = this.controller.signal;
    this.onResult = options.onResult;
    this.approvals = options.approvals;
    const limits = services.toolConcurrency;
    // Woken by the executor's tool limits when a slot frees up.
    this.#throttled =
      limits === undefined
        ? undefined
        : new ThrottledCalls(limits, () => {
            if (!this.#draining && !this.propagating) this.pump();
          });
    this.sink = new RunEvents(options.runId, options.onEvent, options.plan);
  }

  /** The output a `$ref` to `id` resolves to, or `undefined`. */
  abstract readonly outputOf: (id: string) => JsonValue | undefined;

  /** Completes the execution once every call is done and no more are coming. */
  protected abstract completeIfDone(): void;

  /** Drops every queued call (cancellation). */
  protected clearQueue(): void {
    this.#queue = [];
    this.#queueHead = 0;
    this.#throttled?.clear();
  }

  /** Lets go of the identical-call index (the execution is done). */
  protected forgetIdentical(): void {
    this.#identical = undefined;
  }

  /** True when someone receives events; callers build no event otherwise (internal). */
  get listening(): boolean {
    return this.sink.listening;
  }

  /** Makes the gate of the next batch, for strict batch-after-batch scheduling (internal). */
  gate(previous: BatchGate | undefined): BatchGate {
    const gate = new BatchGate(previous);
    if (previous !== undefined) previous.next = gate;
    return gate;
  }

  /** Marks a gate's batch as fully added (internal). */
  seal(gate: BatchGate): void {
    gate.sealed = true;
    this.tryOpen(gate);
    this.pump();
  }

  /** Records the result of a dispatched call (internal; ignored once the call is done). */
  complete(node: CallNode, result: ToolResult): void {
    if (node.state !== CallState.Running) return;
    this.settle(node, result);
    this.pump();
  }

  /**
   * Joins an identical call seen earlier in this run (same tool, same canonical
   * arguments): returns true when `node` will get a copy of that call's result.
   */
  joinIdentical(tool: object, canonicalArguments: string, node: CallNode): boolean {
    this.#identical ??= new IdenticalCalls();
    const leader = this.#identical.leaderFor(tool, canonicalArguments, node);
    if (leader === undefined) return false;
    if (leader.state === CallState.Done) {
      this.complete(node, copiedResult(node, leader.result as ToolResult));
    } else {
      leader.copies = appended(leader.copies, node);
    }
    return true;
  }

  /** Milliseconds since the run started. */
  now(): number {
    return performance.now() - this.startedAt;
  }

  /** Emits an event (internal; callers check `listening` first so nothing is built in vain). */
  emit(event: ExecutorEvent): void {
    this.sink.emit(event);
  }

  /**
   * A running call waits for a person: its concurrency slot goes to other calls meanwhile
   * (internal). Pair with {@link resume}.
   */
  suspend(node: CallNode): void {
    if (node.state !== CallState.Running || node.suspended) return;
    node.suspended = true;
    this.#running--;
    this.pump();
  }

  /** The wait is over: resolves once the call holds a concurrency slot again (internal). */
  resume(node: CallNode): Promise<void> | undefined {
    if (!node.suspended) return undefined;
    if (node.state === CallState.Done || this.#running < this.services.concurrency) {
      this.#take(node);
      return undefined;
    }
    return new Promise((resolve) => this.#resuming.push({ node, resolve }));
  }

  #take(node: CallNode): void {
    if (!node.suspended) return;
    node.suspended = false;
    if (node.state !== CallState.Done) this.#running++;
  }

  /** `reportProgress` of a running call (internal). */
  progress(node: CallNode, progress: ToolProgress): void {
    if (!this.listening || node.state !== CallState.Running) return;
    this.sink.emit({
      type: 'call-progress',
      at: this.now(),
      callId: node.id,
      toolName: node.toolName,
      progress,
    });
  }

  /** Leaves a call waiting for a decision made outside the execution (internal). */
  leavePending(node: CallNode, request: ApprovalRequest): void {
    if (node.state !== CallState.Running) return;
    node.deferred = true;
    this.#callHook(() => this.approvals?.pending(request));
    this.complete(node, pendingResult(node, request.approvalId));
  }

  /** A call that needs a call waiting for approval waits too: it is answered so, not run. */
  protected deferDependent(node: CallNode, waitsOn: string): void {
    if (this.aborted) {
      this.skip(node, 'cancelled', cancelledMessage(false, this.abortReason));
      return;
    }
    node.deferred = true;
    const waiting = { callId: node.id, toolName: node.toolName, waitsOn };
    this.#callHook(() => this.approvals?.waiting?.(waiting));
    this.settle(node, waitingResult(node, waitsOn));
  }

  #callHook(hook: () => void): void {
    try {
      hook();
    } catch (error) {
      this.hookFailure(error);
    }
  }

  protected prerequisiteDone(node: CallNode): void {
    if (--node.pending === 0 && node.state === CallState.Waiting) this.enqueue(node);
  }

  protected enqueue(node: CallNode): void {
    node.state = CallState.Queued;
    this.#queue.push(node);
  }

  /** Dispatches queued calls up to the concurrency cap, then completes the run if it can. */
  protected pump(): void {
    if (this.#draining || this.propagating) return;
    this.#draining = true;
    const cap = this.services.concurrency;
    while (this.#resuming.length > 0 && this.#running < cap) {
      const waiter = this.#resuming.shift() as { node: CallNode; resolve: () => void };
      this.#take(waiter.node);
      waiter.resolve();
    }
    this.#throttled?.drain(this.#hasRoom, this.#dispatchNode, this.#throttle);
    while (this.#queueHead < this.#queue.length && this.#running < cap) {
      const node = this.#queue[this.#queueHead++] as CallNode;
      if (node.state === CallState.Queued) this.#dispatchOrThrottle(node);
    }
    if (this.#queueHead === this.#queue.length) {
      this.#queue.length = 0;
      this.#queueHead = 0;
    }
    this.#draining = false;
    this.completeIfDone();
  }

  /** Dispatches `node`, unless a limit of its tool is full: then it waits for a slot. */
  #dispatchOrThrottle(node: CallNode): void {
    const full = this.#throttled?.take(node);
    if (full === undefined) this.#dispatch(node);
    else this.#throttle(node, full);
  }

  readonly #throttle = (node: CallNode, limit: string): void => {
    (this.#throttled as ThrottledCalls).add(node, limit);
    if (this.listening) this.sink.emit(throttledEvent(node, limit, this.#throttled, this.now()));
  };
  readonly #dispatchNode = (node: CallNode): void => this.#dispatch(node);
  readonly #hasRoom = (): boolean => this.#running < this.services.concurrency;
  #dispatch(node: CallNode): void {
    node.state = CallState.Running;
    this.#running++;
    node.startedAt = performance.now();
    if (this.listening) {
      this.sink.emit({
        type: 'call-started',
        at: node.startedAt - this.startedAt,
        callId: node.id,
        toolName: node.toolName,
      });
    }
    void runCall(this, node);
  }

  protected skip(
    node: CallNode,
    code: 'invalid_plan' | 'invalid_arguments' | 'dependency_failed' | 'cancelled',
    message: string,
  ): void {
    this.settle(node, errorResult(node, code, message, { skipped: true }));
  }

  /** Skips a call whose dependency did not succeed (or, once the run is cancelled, as cancelled). */
  protected skipDependent(node: CallNode, dependencyId: string, dependency: ToolResult): void {
    if (this.aborted) this.skip(node, 'cancelled', cancelledMessage(false, this.abortReason));
    else
      this.skip(node, 'dependency_failed', dependencyFailedMessage(node, dependencyId, dependency));
  }

  /** Records a result, emits its event, and releases everything that waited on the call. */
  protected settle(node: CallNode, result: ToolResult, options?: { silent: true }): void {
    const dispatched = node.state === CallState.Running;
    if (dispatched && !node.suspended) this.#running--;
    node.state = CallState.Done;
    node.result = result;
    this.settled++;
    if (node.timer !== undefined) clearTimeout(node.timer);
    node.timer = undefined;
    node.controller = undefined;
    node.abortWatcher = undefined;
    node.wake = undefined;
    if (
      dispatched &&
      this.onResult !== undefined &&
      result.error_code !== 'cancelled' &&
      !node.deferred
    ) {
      try {
        this.onResult(node.call as ToolCall, result);
      } catch (error) {
        this.hookFailure(error);
      }
    }
    if (this.listening && options === undefined) {
      const at = this.now();
      this.sink.emit(
        dispatched
          ? callFinishedEvent(node, result, at, performance.now() - node.startedAt)
          : callSkippedEvent(node, result, at),
      );
    }
    this.#justSettled.push(node);
    if (!this.propagating) this.propagate();
    const slots = node.slots;
    if (slots !== undefined) {
      node.slots = undefined;
      this.services.toolConcurrency?.give(slots);
    }
  }

  protected propagate(): void {
    this.propagating = true;
    const settled = this.#justSettled;
    while (settled.length > 0) {
      const node = settled.pop() as CallNode;
      const result = node.result as ToolResult;
      const dependents = node.dependents;
      if (dependents !== undefined) {
        for (const dependent of dependents) {
          if (dependent.state === CallState.Done) continue;
          if (result.success) this.prerequisiteDone(dependent);
          else if (node.deferred) this.deferDependent(dependent, node.id);
          else this.skipDependent(dependent, node.id, result);
        }
      }
      const followers = node.followers;
      if (followers !== undefined) {
        for (const follower of followers)
          if (follower.state !== CallState.Done) this.prerequisiteDone(follower);
      }
      const copies = node.copies;
      if (copies !== undefined) {
        for (const copy of copies) {
          if (copy.state === CallState.Done) continue;
          if (node.deferred && !this.aborted) {
            this.deferDependent(copy, node.id);
            continue;
          }
          // A cancelled run cancels each copy in its own right; otherwise it shares the outcome.
          this.settle(
            copy,
            this.aborted
              ? errorResult(copy, 'cancelled', cancelledMessage(true, this.abortReason))
              : copiedResult(copy, result),
          );
        }
      }
      if (node.gate !== undefined) {
        node.gate.unfinished--;
        this.tryOpen(node.gate);
      }
      node.dependents = undefined;
      node.followers = undefined;
      node.copies = undefined;
    }
    this.propagating = false;
  }

  /** Opens a sealed gate whose batch is done and whose previous gate is open, then the next ones. */
  protected tryOpen(gate: BatchGate): void {
    if (gate.open || !gate.sealed || gate.unfinished > 0) return;
    if (gate.previous !== undefined && !gate.previous.open) return;
    gate.open = true;
    for (const node of gate.held) if (node.state !== CallState.Done) this.prerequisiteDone(node);
    gate.held.length = 0;
    if (gate.next !== undefined) this.tryOpen(gate.next);
  }

  /** A hook threw: remembered, reported when the execution is done (as a throwing `onEvent`). */
  hookFailure(error: unknown): void {
    if (this.hookFailed) return;
    this.hookFailed = true;
    this.hookError = error;
  }
}
