import type { JsonValue, ToolCallInput, ToolResult } from '@mtpx/protocol';
import { inspectToolCall } from '@mtpx/protocol/internal';
import { errorResult } from '../call/tool-results';
import { callOutOfBounds, standInFor } from '../call/value-limits';
import { ExecutorError } from '../errors';
import type { ExecutorEvent } from '../events/events';
import type { ExecutorServices } from '../executor-services';
import { appended, CallNode, CallState, type PlannedCall } from './call-node';
import { type PlanInfo, planFinishedEvent } from './execution-events';
import {
  cancelledMessage,
  cycleMessage,
  dependencyFailedMessage,
  duplicateIdMessage,
  reusedIdMessage,
  selfReferenceMessage,
} from './execution-messages';
import { HeldCalls } from './held-calls';
import {
  type HoldRule,
  historyLookup,
  type KnownResultSource,
  type PlanExecution,
  type PlanExecutionOptions,
} from './plan-execution-types';
import { Scheduler } from './scheduler';
import { findWaitingCycles, missingTargets } from './unresolved-calls';

const noTargets: readonly string[] = [];

/**
 * One plan execution (internal; the public face is {@link PlanExecution}): what is added
 * and how — bounds, the duplicate / reused id rule, known results, holds, dependency
 * links and waits, the end-of-input checks — on top of the {@link Scheduler}.
 */
export class Execution extends Scheduler implements PlanExecution {
  readonly results: Promise<ToolResult[]>;
  readonly #byId = new Map<string, CallNode>();
  readonly #history: (id: string) => ToolResult | undefined;
  readonly #holdRule: HoldRule | undefined;
  readonly #knownResult: KnownResultSource | undefined;
  #held: HeldCalls | undefined;
  #waitingFor: Map<string, CallNode[]> | undefined;
  #ended = false;
  #completed = false;
  #detachSignal: (() => void) | undefined;
  #resolve!: (results: ToolResult[]) => void;
  #reject!: (error: unknown) => void;

  constructor(services: ExecutorServices, options: PlanExecutionOptions = {}, plan: PlanInfo = {}) {
    super(services, {
      runId: options.runId,
      onEvent: options.onEvent,
      onResult: options.onResult,
      approvals: options.approvals,
      plan,
    });
    this.#history = historyLookup(options.history);
    this.#holdRule = options.hold;
    this.#knownResult = options.knownResult;
    if (options.hold !== undefined) this.#held = new HeldCalls();
    if (plan.bufferEvents) this.sink.channel();
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
    return this.sink.channel();
  }

  add(call: ToolCallInput): void {
    if (this.#ended) {
      throw new ExecutorError({
        code: 'run_ended',
        message: `Cannot add call ${JSON.stringify((call as { id?: unknown })?.id)}: the run has ended.`,
      });
    }
    this.addCall(call, `calls[${this.nodes.length}]`, undefined);
  }

  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#failMissing();
    this.#failCycles();
    this.pump();
  }

  cancel(reason?: unknown): void {
    if (this.aborted || this.#completed) return;
    this.aborted = true;
    this.abortReason = reason;
    this.controller.abort(reason);
    this.clearQueue();
    for (let index = 0; index < this.nodes.length; index++) {
      const node = this.nodes[index] as CallNode;
      if (node.state === CallState.Done) continue;
      const started = node.state === CallState.Running;
      if (started) {
        node.controller?.abort(reason);
        const watcher = node.abortWatcher;
        node.abortWatcher = undefined;
        watcher?.handleEvent();
        node.wake?.();
      }
      this.settle(
        node,
        errorResult(node, 'cancelled', cancelledMessage(started, reason), { skipped: !started }),
      );
    }
    this.pump();
  }

  release(): void {
    const held = this.#held;
    if (held === undefined || held.state !== 'holding') return;
    held.state = 'released';
    for (const { node, planned, heldAt } of held.take()) {
      if (node.state !== CallState.Waiting) continue;
      if (this.listening) {
        const at = this.now();
        this.sink.emit({
          type: 'call-released',
          at,
          callId: node.id,
          toolName: node.toolName,
          heldMs: performance.now() - heldAt,
        });
      }
      this.#link(node, planned);
      this.pump(); // each starts before the next is released, as if added now
    }
    if (this.#ended) {
      // Released after `end()`: what they wait for can no longer arrive.
      this.#failMissing();
      this.#failCycles();
    }
    this.pump();
  }

  dropHeld(message: string): void {
    const held = this.#held;
    if (held === undefined || held.state !== 'holding') return;
    held.state = 'dropped';
    held.dropMessage = message;
    for (const { node } of held.take()) {
      if (node.state === CallState.Waiting) this.skip(node, 'cancelled', message);
    }
    this.pump();
  }

  /** Adds a call from `add` or from a plan (internal). */
  addCall(input: unknown, location: string, planned: PlannedCall | undefined): CallNode {
    // Measured first, by an iterative walk: nothing below may meet a deep or cyclic value.
    const outOfBounds = callOutOfBounds(input, this.services.limits);
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
      this.nodes.length,
      inspection.id ?? '',
      inspection.name ?? '',
      call,
      input,
      location,
      targets,
      inspection.refTargets.length > 0,
    );
    this.nodes.push(node);
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
      this.skip(
        node,
        'invalid_arguments',
        `Invalid arguments for "${node.toolName}": ${outOfBounds}`,
      );
    } else if (failure !== undefined) this.skip(node, 'invalid_plan', failure);
    else if (!this.#answerKnown(node)) {
      if (this.aborted) this.skip(node, 'cancelled', cancelledMessage(false, this.abortReason));
      else if (!this.#holdIfHeld(node, planned)) this.#link(node, planned);
    }
    if (registered) this.#releaseWaiters(node);
    this.pump();
    return node;
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

  /** Answers `node` with its known result (`knownResult`), if it has one: true when answered. */
  #answerKnown(node: CallNode): boolean {
    const source = this.#knownResult;
    if (source === undefined || node.call === undefined) return false;
    let known: ToolResult | undefined;
    try {
      known = source(node.call);
    } catch (error) {
      this.hookFailure(error);
    }
    if (known === undefined) return false;
    this.settle(node, known, { silent: true });
    return true;
  }

  /** Holds `node` when the `hold` rule (or a held dependency) says so: true when held. */
  #holdIfHeld(node: CallNode, planned: PlannedCall | undefined): boolean {
    const held = this.#held;
    if (held === undefined || held.state === 'released' || node.call === undefined) return false;
    let own: string | undefined;
    try {
      own = (this.#holdRule as HoldRule)(node.call, this.services.registry.get(node.toolName));
    } catch (error) {
      this.hookFailure(error);
    }
    const reason = held.reasonFor(node, own);
    if (reason === undefined) return false;
    if (held.state === 'dropped') {
      this.skip(node, 'cancelled', held.dropMessage);
      return true;
    }
    held.hold(node, planned);
    if (this.listening) {
      this.sink.emit({
        type: 'call-held',
        at: this.now(),
        callId: node.id,
        toolName: node.toolName,
        reason,
      });
    }
    return true;
  }

  #link(node: CallNode, planned: PlannedCall | undefined): void {
    let failed: string | undefined;
    let waitsOn: string | undefined;
    for (const target of node.targets) {
      const other = this.#byId.get(target);
      if (other !== undefined) {
        if (other.state !== CallState.Done) {
          other.dependents = appended(other.dependents, node);
          node.pending++;
        } else if (other.deferred) {
          waitsOn ??= target;
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
    if (failed !== undefined) this.skip(node, 'dependency_failed', failed);
    else if (waitsOn !== undefined) this.deferDependent(node, waitsOn);
    else if (node.pending === 0) this.enqueue(node);
  }

  /** A call arrived that others were waiting for: wire them to it. */
  #releaseWaiters(node: CallNode): void {
    const waiters = this.#waitingFor?.get(node.id);
    if (waiters === undefined) return;
    this.#waitingFor?.delete(node.id);
    for (const waiter of waiters) {
      if (waiter.state === CallState.Done) continue;
      if (node.state !== CallState.Done) node.dependents = appended(node.dependents, waiter);
      else if ((node.result as ToolResult).success) this.prerequisiteDone(waiter);
      else if (node.deferred) this.deferDependent(waiter, node.id);
      else this.skipDependent(waiter, node.id, node.result as ToolResult);
    }
  }

  /** At `end()`: calls still waiting for ids that never arrived. */
  #failMissing(): void {
    const waitingFor = this.#waitingFor;
    if (waitingFor === undefined || waitingFor.size === 0) return;
    const missing = missingTargets(waitingFor);
    waitingFor.clear();
    for (const [waiter, message] of missing) {
      if (waiter.state !== CallState.Done) this.skip(waiter, 'invalid_plan', message);
    }
  }

  /** At `end()`: calls waiting on each other in a loop. */
  #failCycles(): void {
    const waiting = this.nodes.filter((node) => node.state === CallState.Waiting);
    if (waiting.length < 2) return;
    const cycles = findWaitingCycles(waiting, this.#byId);
    if (cycles.length === 0) return;
    // Every member fails for the cycle itself (not for a neighbour's failure): settle them
    // all before anything propagates.
    const outer = this.propagating;
    this.propagating = true;
    for (const { members, loop } of cycles) {
      const message = cycleMessage(loop);
      for (const member of members) this.skip(member, 'invalid_plan', message);
    }
    this.propagating = outer;
    if (!outer) this.propagate();
  }

  protected completeIfDone(): void {
    if (!this.#ended || this.#completed || this.settled < this.nodes.length) return;
    this.#completed = true;
    this.#detachSignal?.();
    this.forgetIdentical();
    const results = this.nodes.map((node) => node.result as ToolResult);
    if (this.listening) this.sink.emit(planFinishedEvent(results, this.now()));
    this.sink.close();
    if (this.hookFailed) {
      const error = this.hookError;
      this.#reject(
        new ExecutorError({
          code: 'hook_failed',
          message: `A plan execution hook (hold, knownResult or onResult) threw: ${error instanceof Error ? error.message : String(error)}`,
          cause: error,
        }),
      );
      return;
    }
    const failure = this.sink.handlerFailure();
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
