import type { JsonValue, PlanIssue, ToolCallInput, ToolResult } from '@mtpx/protocol';
import { inspectToolCall } from '@mtpx/protocol/internal';
import { runCall } from '../call/call-runner';
import { copiedResult, errorResult } from '../call/tool-results';
import { callOutOfBounds, standInFor } from '../call/value-limits';
import { ExecutorError } from '../errors';
import type { ExecutorEvent } from '../events/events';
import type { ExecutorServices } from '../executor-services';
import type { ToolProgress } from '../tools/define-tool';
import { appended, BatchGate, CallNode, CallState } from './call-node';
import {
  callFinishedEvent,
  callSkippedEvent,
  planFinishedEvent,
  RunEvents,
} from './execution-events';
import {
  cancelledMessage,
  cycleMessage,
  dependencyFailedMessage,
  duplicateIdMessage,
  reusedIdMessage,
  selfReferenceMessage,
} from './execution-messages';
import { IdenticalCalls } from './identical-calls';
import { type ExecutionRun, historyLookup, type RunOptions } from './plan-execution-types';
import { findWaitingCycles, missingTargets } from './unresolved-calls';

/** How a planned call (from an ExecutionPlan) is added. */
export interface PlannedCall {
  /** Validation messages that concern this call: it fails with `invalid_plan`. */
  failure?: string;
  /** The previous call of its sequential batch: runs after it (ordering only). */
  after?: CallNode;
  /** Its batch's gate (strict batch scheduling). */
  gate?: BatchGate;
}

/** What a run knows about its plan when it starts. */
export interface RunPlanInfo {
  callCount?: number;
  issues?: PlanIssue[];
  /** Buffer events from the start (for `stream`). */
  bufferEvents?: boolean;
}

const noTargets: readonly string[] = [];

/** The scheduler: one per run (internal; the public face is {@link ExecutionRun}). */
export class Run implements ExecutionRun {
  readonly runId: string | undefined;
  readonly signal: AbortSignal;
  readonly results: Promise<ToolResult[]>;
  readonly #services: ExecutorServices;
  readonly #controller = new AbortController();
  readonly #startedAt = performance.now();
  readonly #nodes: CallNode[] = [];
  readonly #byId = new Map<string, CallNode>();
  readonly #history: (id: string) => ToolResult | undefined;
  readonly #events: RunEvents;
  #waitingFor: Map<string, CallNode[]> | undefined;
  #identical: IdenticalCalls | undefined;
  #queue: CallNode[] = [];
  #queueHead = 0;
  #running = 0;
  #settled = 0;
  #ended = false;
  #completed = false;
  #aborted = false;
  #abortReason: unknown;
  #draining = false;
  #propagating = false;
  readonly #justSettled: CallNode[] = [];
  /** Calls back from an approval wait, waiting for a concurrency slot (served first). */
  readonly #resuming: Array<{ node: CallNode; resolve: () => void }> = [];
  #detachSignal: (() => void) | undefined;
  #resolve!: (results: ToolResult[]) => void;
  #reject!: (error: unknown) => void;

  constructor(services: ExecutorServices, options: RunOptions = {}, plan: RunPlanInfo = {}) {
    this.#services = services;
    this.runId = options.runId;
    this.signal = this.#controller.signal;
    this.#history = historyLookup(options.history);
    this.#events = new RunEvents(options.runId, options.onEvent, plan);
    if (plan.bufferEvents) this.#events.channel();
    this.results = new Promise<ToolResult[]>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });

    const external = options.signal;
    if (external?.aborted) {
      this.cancel(external.reason);
    } else if (external !== undefined) {
      const onAbort = () => this.cancel(external.reason);
      external.addEventListener('abort', onAbort, { once: true });
      this.#detachSignal = () => external.removeEventListener('abort', onAbort);
    }
  }

  get events(): AsyncIterable<ExecutorEvent> {
    return this.#events.channel();
  }

  /** True when someone receives events; callers build no event otherwise (internal). */
  get listening(): boolean {
    return this.#events.listening;
  }

  add(call: ToolCallInput): void {
    if (this.#ended) {
      throw new ExecutorError({
        code: 'run_ended',
        message: `Cannot add call ${JSON.stringify((call as { id?: unknown })?.id)}: the run has ended.`,
      });
    }
    this.addCall(call, `calls[${this.#nodes.length}]`, undefined);
  }

  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#failMissing();
    this.#failCycles();
    this.#pump();
  }

  cancel(reason?: unknown): void {
    if (this.#aborted || this.#completed) return;
    this.#aborted = true;
    this.#abortReason = reason;
    this.#controller.abort(reason);
    this.#queue = [];
    this.#queueHead = 0;
    for (let index = 0; index < this.#nodes.length; index++) {
      const node = this.#nodes[index] as CallNode;
      if (node.state === CallState.Done) continue;
      const started = node.state === CallState.Running;
      if (started) {
        node.controller?.abort(reason);
        node.wake?.();
      }
      this.#settle(
        node,
        errorResult(node, 'cancelled', cancelledMessage(started, reason), { skipped: !started }),
      );
    }
    this.#pump();
  }

  /** Adds a call from `add` or from a plan (internal). */
  addCall(input: unknown, location: string, planned: PlannedCall | undefined): CallNode {
    // Measured first, by an iterative walk: nothing below may meet a deep or cyclic value.
    const outOfBounds = callOutOfBounds(input, this.#services.limits);
    const inspection = inspectToolCall(
      outOfBounds === undefined ? input : standInFor(input),
      location,
    );
    const call = inspection.call;
    let targets = noTargets;
    if (call !== undefined && (call.depends_on.length > 0 || inspection.refTargets.length > 0)) {
      targets = [...new Set([...call.depends_on, ...inspection.refTargets])];
    }
    const node = new CallNode(
      this.#nodes.length,
      inspection.id ?? '',
      inspection.name ?? '',
      call,
      input,
      location,
      targets,
      inspection.refTargets.length > 0,
    );
    this.#nodes.push(node);
    const gate = planned?.gate;
    if (gate !== undefined) {
      gate.unfinished++;
      node.gate = gate;
    }

    let failure = planned?.failure;
    if (failure === undefined && inspection.issues.length > 0) {
      failure = inspection.issues.map((issue) => issue.message).join(' ');
    }
    const first = node.id === '' ? undefined : this.#byId.get(node.id);
    // An id from an earlier round keeps naming that round's result.
    const reused = node.id !== '' && first === undefined && this.#history(node.id) !== undefined;
    if (failure === undefined && node.id !== '') {
      if (first !== undefined) failure = duplicateIdMessage(first, node);
      else if (reused) failure = reusedIdMessage(node);
      else if (targets.includes(node.id)) failure = selfReferenceMessage(node);
    }
    const registered = node.id !== '' && first === undefined && !reused;
    if (registered) this.#byId.set(node.id, node);

    if (outOfBounds !== undefined && failure === undefined) {
      this.#skip(
        node,
        'invalid_arguments',
        `Invalid arguments for "${node.toolName}": ${outOfBounds}`,
      );
    } else if (failure !== undefined) this.#skip(node, 'invalid_plan', failure);
    else if (this.#aborted)
      this.#skip(node, 'cancelled', cancelledMessage(false, this.#abortReason));
    else this.#link(node, planned);
    if (registered) this.#releaseWaiters(node);
    this.#pump();
    return node;
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
    this.#tryOpen(gate);
    this.#pump();
  }

  /** Every service of the executor (internal, for the call runner). */
  get services(): ExecutorServices {
    return this.#services;
  }

  /** The output a `$ref` to `id` resolves to, or `undefined` (internal). */
  readonly outputOf = (id: string): JsonValue | undefined => {
    const node = this.#byId.get(id);
    if (node !== undefined) {
      const result = node.result;
      return result?.success ? (result.output ?? null) : undefined;
    }
    const past = this.#history(id);
    return past?.success ? (past.output ?? null) : undefined;
  };

  /** Records the result of a dispatched call (internal; ignored once the call is done). */
  complete(node: CallNode, result: ToolResult): void {
    if (node.state !== CallState.Running) return;
    this.#settle(node, result);
    this.#pump();
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
    return performance.now() - this.#startedAt;
  }

  /** Emits an event (internal; callers check `listening` first so nothing is built in vain). */
  emit(event: ExecutorEvent): void {
    this.#events.emit(event);
  }

  /**
   * A running call waits for a person: its concurrency slot goes to other calls meanwhile
   * (internal). Pair with {@link resume}.
   */
  suspend(node: CallNode): void {
    if (node.state !== CallState.Running || node.suspended) return;
    node.suspended = true;
    this.#running--;
    this.#pump();
  }

  /** The wait is over: resolves once the call holds a concurrency slot again (internal). */
  resume(node: CallNode): Promise<void> | undefined {
    if (!node.suspended) return undefined;
    if (node.state === CallState.Done || this.#running < this.#services.concurrency) {
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
    this.#events.emit({
      type: 'call-progress',
      at: this.now(),
      callId: node.id,
      toolName: node.toolName,
      progress,
    });
  }

  #link(node: CallNode, planned: PlannedCall | undefined): void {
    let failed: string | undefined;
    for (const target of node.targets) {
      const other = this.#byId.get(target);
      if (other !== undefined) {
        if (other.state !== CallState.Done) {
          other.dependents = appended(other.dependents, node);
          node.pending++;
        } else if (failed === undefined && !(other.result as ToolResult).success) {
          failed = dependencyFailedMessage(node, target, other.result as ToolResult);
        }
        continue;
      }
      const past = this.#history(target);
      if (past !== undefined) {
        if (failed === undefined && !past.success)
          failed = dependencyFailedMessage(node, target, past);
        continue;
      }
      this.#waitingFor ??= new Map();
      const waiters = this.#waitingFor.get(target);
      if (waiters === undefined) this.#waitingFor.set(target, [node]);
      else waiters.push(node);
      node.pending++;
    }
    const after = planned?.after;
    if (after !== undefined && after.state !== CallState.Done) {
      after.followers = appended(after.followers, node);
      node.pending++;
    }
    const previousGate = planned?.gate?.previous;
    if (previousGate !== undefined && !previousGate.open) {
      previousGate.held.push(node);
      node.pending++;
    }
    if (failed !== undefined) this.#skip(node, 'dependency_failed', failed);
    else if (node.pending === 0) this.#enqueue(node);
  }

  /** A call arrived that others were waiting for: wire them to it. */
  #releaseWaiters(node: CallNode): void {
    const waiters = this.#waitingFor?.get(node.id);
    if (waiters === undefined) return;
    this.#waitingFor?.delete(node.id);
    for (const waiter of waiters) {
      if (waiter.state === CallState.Done) continue;
      if (node.state !== CallState.Done) node.dependents = appended(node.dependents, waiter);
      else if ((node.result as ToolResult).success) this.#prerequisiteDone(waiter);
      else this.#skipDependent(waiter, node.id, node.result as ToolResult);
    }
  }

  #prerequisiteDone(node: CallNode): void {
    if (--node.pending === 0 && node.state === CallState.Waiting) this.#enqueue(node);
  }

  #enqueue(node: CallNode): void {
    node.state = CallState.Queued;
    this.#queue.push(node);
  }

  /** Dispatches queued calls up to the concurrency cap, then completes the run if it can. */
  #pump(): void {
    if (this.#draining || this.#propagating) return;
    this.#draining = true;
    const cap = this.#services.concurrency;
    while (this.#resuming.length > 0 && this.#running < cap) {
      const waiter = this.#resuming.shift() as { node: CallNode; resolve: () => void };
      this.#take(waiter.node);
      waiter.resolve();
    }
    while (this.#queueHead < this.#queue.length && this.#running < cap) {
      const node = this.#queue[this.#queueHead++] as CallNode;
      if (node.state === CallState.Queued) this.#dispatch(node);
    }
    if (this.#queueHead === this.#queue.length) {
      this.#queue.length = 0;
      this.#queueHead = 0;
    }
    this.#draining = false;
    this.#completeIfDone();
  }

  #dispatch(node: CallNode): void {
    node.state = CallState.Running;
    this.#running++;
    node.startedAt = performance.now();
    if (this.listening) {
      this.#events.emit({
        type: 'call-started',
        at: node.startedAt - this.#startedAt,
        callId: node.id,
        toolName: node.toolName,
      });
    }
    void runCall(this, node);
  }

  #skip(
    node: CallNode,
    code: 'invalid_plan' | 'invalid_arguments' | 'dependency_failed' | 'cancelled',
    message: string,
  ): void {
    this.#settle(node, errorResult(node, code, message, { skipped: true }));
  }

  /** Skips a call whose dependency did not succeed (or, once the run is cancelled, as cancelled). */
  #skipDependent(node: CallNode, dependencyId: string, dependency: ToolResult): void {
    if (this.#aborted) this.#skip(node, 'cancelled', cancelledMessage(false, this.#abortReason));
    else
      this.#skip(
        node,
        'dependency_failed',
        dependencyFailedMessage(node, dependencyId, dependency),
      );
  }

  /** Records a result, emits its event, and releases everything that waited on the call. */
  #settle(node: CallNode, result: ToolResult): void {
    const dispatched = node.state === CallState.Running;
    if (dispatched && !node.suspended) this.#running--;
    node.state = CallState.Done;
    node.result = result;
    this.#settled++;
    if (node.timer !== undefined) {
      clearTimeout(node.timer);
      node.timer = undefined;
    }
    node.controller = undefined;
    node.wake = undefined;
    if (this.listening) {
      const at = this.now();
      this.#events.emit(
        dispatched
          ? callFinishedEvent(node, result, at, performance.now() - node.startedAt)
          : callSkippedEvent(node, result, at),
      );
    }
    this.#justSettled.push(node);
    if (!this.#propagating) this.#propagate();
  }

  #propagate(): void {
    this.#propagating = true;
    const settled = this.#justSettled;
    while (settled.length > 0) {
      const node = settled.pop() as CallNode;
      const result = node.result as ToolResult;
      const dependents = node.dependents;
      if (dependents !== undefined) {
        for (const dependent of dependents) {
          if (dependent.state === CallState.Done) continue;
          if (result.success) this.#prerequisiteDone(dependent);
          else this.#skipDependent(dependent, node.id, result);
        }
      }
      const followers = node.followers;
      if (followers !== undefined) {
        for (const follower of followers)
          if (follower.state !== CallState.Done) this.#prerequisiteDone(follower);
      }
      const copies = node.copies;
      if (copies !== undefined) {
        for (const copy of copies) {
          if (copy.state === CallState.Done) continue;
          // A cancelled run cancels each copy in its own right; otherwise it shares the outcome.
          this.#settle(
            copy,
            this.#aborted
              ? errorResult(copy, 'cancelled', cancelledMessage(true, this.#abortReason))
              : copiedResult(copy, result),
          );
        }
      }
      if (node.gate !== undefined) {
        node.gate.unfinished--;
        this.#tryOpen(node.gate);
      }
      node.dependents = undefined;
      node.followers = undefined;
      node.copies = undefined;
    }
    this.#propagating = false;
  }

  /** Opens a sealed gate whose batch is done and whose previous gate is open, then the next ones. */
  #tryOpen(gate: BatchGate): void {
    if (gate.open || !gate.sealed || gate.unfinished > 0) return;
    if (gate.previous !== undefined && !gate.previous.open) return;
    gate.open = true;
    for (const node of gate.held) if (node.state !== CallState.Done) this.#prerequisiteDone(node);
    gate.held.length = 0;
    if (gate.next !== undefined) this.#tryOpen(gate.next);
  }

  /** At `end()`: calls still waiting for ids that never arrived. */
  #failMissing(): void {
    const waitingFor = this.#waitingFor;
    if (waitingFor === undefined || waitingFor.size === 0) return;
    const missing = missingTargets(waitingFor);
    waitingFor.clear();
    for (const [waiter, message] of missing) {
      if (waiter.state !== CallState.Done) this.#skip(waiter, 'invalid_plan', message);
    }
  }

  /** At `end()`: calls waiting on each other in a loop. */
  #failCycles(): void {
    const waiting = this.#nodes.filter((node) => node.state === CallState.Waiting);
    if (waiting.length < 2) return;
    const cycles = findWaitingCycles(waiting, this.#byId);
    if (cycles.length === 0) return;
    // Every member fails for the cycle itself (not for a neighbour's failure): settle them
    // all before anything propagates.
    const outer = this.#propagating;
    this.#propagating = true;
    for (const { members, loop } of cycles) {
      const message = cycleMessage(loop);
      for (const member of members) this.#skip(member, 'invalid_plan', message);
    }
    this.#propagating = outer;
    if (!outer) this.#propagate();
  }

  #completeIfDone(): void {
    if (!this.#ended || this.#completed || this.#settled < this.#nodes.length) return;
    this.#completed = true;
    this.#detachSignal?.();
    this.#identical = undefined;
    const results = this.#nodes.map((node) => node.result as ToolResult);
    if (this.listening) this.#events.emit(planFinishedEvent(results, this.now()));
    this.#events.close();
    const failure = this.#events.handlerFailure();
    if (failure !== undefined) {
      const { error } = failure;
      this.#reject(
        new ExecutorError({
          code: 'event_handler_failed',
          message: `An onEvent handler threw: ${error instanceof Error ? error.message : String(error)}`,
          cause: error,
        }),
      );
    } else {
      this.#resolve(results);
    }
  }
}
