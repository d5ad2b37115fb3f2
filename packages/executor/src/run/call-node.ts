import type { ToolCall, ToolResult } from '@mtpx/protocol';

/**
 * Told when a running call is aborted (internal): what {@link EventListenerObject}s are,
 * so one object can watch an `AbortSignal` or, cheaper, the call itself.
 */
export interface AbortWatcher {
  handleEvent(event?: Event): void;
}

/** Where a call is in its life. */
export const CallState = {
  /** Some prerequisite has not finished. */
  Waiting: 0,
  /** Prerequisites met; waiting for a concurrency slot. */
  Queued: 1,
  /** Dispatched: resolving, validating, asking, invoking. */
  Running: 2,
  /** Has its result. */
  Done: 3,
} as const;

/** One of {@link CallState}'s values. */
export type CallState = (typeof CallState)[keyof typeof CallState];

/**
 * One call of a run and its place in the dependency graph. A class with every field set
 * in the constructor, so all nodes share one shape (the scheduler's hot path).
 */
export class CallNode {
  state: CallState = CallState.Waiting;
  /** Unfinished prerequisites: data dependencies, the previous call of a sequential batch, a batch gate. */
  pending = 0;
  /** Calls that need this one's output (a failure here fails them). */
  dependents: CallNode[] | undefined = undefined;
  /** Calls that only run after this one (sequential batches): ordering, no failure propagation. */
  followers: CallNode[] | undefined = undefined;
  /** The batch gate this call counts towards (strict batch scheduling only). */
  gate: BatchGate | undefined = undefined;
  /** Identical calls waiting for this one's result. */
  copies: CallNode[] | undefined = undefined;
  result: ToolResult | undefined = undefined;
  /** `performance.now()` at dispatch (set only when someone listens to events). */
  startedAt = 0;
  /** The current attempt's own controller, when it has a time limit. */
  controller: AbortController | undefined = undefined;
  /** Told when the run is cancelled while the call runs, in place of an AbortController (see `watchAbort`). */
  abortWatcher: AbortWatcher | undefined = undefined;
  /** The pending timeout or retry-backoff timer. */
  timer: ReturnType<typeof setTimeout> | undefined = undefined;
  /** Ends a retry backoff early (on cancellation). */
  wake: (() => void) | undefined = undefined;
  /** True while it waits for approval without its concurrency slot. */
  suspended = false;
  /** Milliseconds spent waiting for approval (not tool time). */
  approvalMs = 0;
  /** True when it waits for a decision made outside the execution (or depends on a call that does). */
  deferred = false;
  /** The tool concurrency limits it holds a slot of while it runs. */
  slots: readonly string[] | undefined = undefined;

  constructor(
    /** Position in add (plan) order: where its result goes. */
    readonly index: number,
    /** The call's id (`""` when it has none). */
    readonly id: string,
    /** The tool it names (`""` when it names none). */
    readonly toolName: string,
    /** The parsed call; `undefined` when its shape is broken. */
    readonly call: ToolCall | undefined,
    /** The call as given (for `arguments_error` and other provider fields). */
    readonly input: unknown,
    /** Where it came from, for messages (`calls[2]`, `batches[0].calls[1]`). */
    readonly location: string,
    /** Ids this call needs finished first: `depends_on` and `$ref` targets, without repeats. */
    readonly targets: readonly string[],
    /** Whether any `$ref` sits in its arguments. */
    readonly hasReferences: boolean,
  ) {}
}

/** How a planned call (from an ExecutionPlan) is added. */
export interface PlannedCall {
  /** Validation messages that concern this call: it fails with `invalid_plan`. */
  failure?: string;
  /** The previous call of its sequential batch: runs after it (ordering only). */
  after?: CallNode;
  /** Its batch's gate (strict batch scheduling). */
  gate?: BatchGate;
}

/** Holds a batch's successors until every call of the batch (and of earlier batches) is done. */
export class BatchGate {
  open = false;
  /** True once every call of the batch has been added. */
  sealed = false;
  /** Calls of the batch not done yet. */
  unfinished = 0;
  /** Calls of the next batch held by this gate. */
  readonly held: CallNode[] = [];
  /** The next batch's gate, opened in turn. */
  next: BatchGate | undefined = undefined;

  constructor(readonly previous: BatchGate | undefined) {}
}

/** `list` with `node` added, made on first use (edge lists stay `undefined` until needed). */
export function appended(list: CallNode[] | undefined, node: CallNode): CallNode[] {
  if (list === undefined) return [node];
  list.push(node);
  return list;
}

/**
 * True once the call has its result — checked after a wait, because the execution may
 * have cancelled it meanwhile. (A function, so TypeScript does not narrow the state
 * across awaits.)
 */
export function isDone(node: CallNode): boolean {
  return node.state === CallState.Done;
}
