import type { JsonObject, ToolCall } from '@mtpx/protocol';
import { type AbortWatcher, type CallNode, CallState } from '../run/call-node';
import type { ToolContext, ToolProgress } from '../tools/define-tool';
import type { CallHost } from './call-host';
import { idempotencyKeyOf } from './idempotency-key';

/**
 * The `context` of one attempt. Its signal is the attempt's own: made up front when the
 * attempt has a time limit, otherwise only when the tool first reads `signal` — tools
 * that never look at it cost no AbortController, and no two calls share a signal (so
 * listeners that tools or `fetch` add never pile up on one target). Cancelling the run
 * aborts it through `node.controller`. The idempotency key, too, is computed on first read.
 */
export class CallContext implements ToolContext {
  readonly call: ToolCall;
  readonly attempt: number;
  readonly runId: string | undefined;
  /** An arrow function, so `{ reportProgress }` can be destructured. */
  readonly reportProgress: (progress: ToolProgress) => void;
  readonly #run: CallHost;
  readonly #node: CallNode;
  readonly #resolvedArgs: JsonObject;
  #controller: AbortController | undefined;
  #idempotencyKey: string | undefined;

  constructor(
    run: CallHost,
    node: CallNode,
    call: ToolCall,
    attempt: number,
    controller: AbortController | undefined,
    resolvedArgs: JsonObject,
  ) {
    this.#run = run;
    this.#node = node;
    this.#resolvedArgs = resolvedArgs;
    this.#controller = controller;
    this.call = call;
    this.attempt = attempt;
    this.runId = run.runId;
    this.reportProgress = (progress) => run.progress(node, progress);
  }

  /** Hashed on first read only: tools that never look at it cost no SHA-256. */
  get idempotencyKey(): string {
    this.#idempotencyKey ??= idempotencyKeyOf(this.runId, this.call.id, this.#resolvedArgs);
    return this.#idempotencyKey;
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      const controller = new AbortController();
      this.#controller = controller;
      if (this.#run.signal.aborted) controller.abort(this.#run.signal.reason);
      else if (this.#node.state === CallState.Running) this.#node.controller = controller;
    }
    return this.#controller.signal;
  }

  /** See {@link watchAbort}: the call itself holds the watcher when no signal was made. */
  watchAbort(watcher: AbortWatcher): boolean {
    const node = this.#node;
    if (
      this.#controller !== undefined ||
      node.abortWatcher !== undefined ||
      node.state !== CallState.Running
    ) {
      return watchSignal(this.signal, watcher);
    }
    if (this.#run.signal.aborted) return false;
    node.abortWatcher = watcher;
    return true;
  }

  /** See {@link unwatchAbort}. */
  unwatchAbort(watcher: AbortWatcher): void {
    if (this.#node.abortWatcher === watcher) this.#node.abortWatcher = undefined;
    else this.#controller?.signal.removeEventListener('abort', watcher);
  }
}

function watchSignal(signal: AbortSignal, watcher: AbortWatcher): boolean {
  if (signal.aborted) return false;
  signal.addEventListener('abort', watcher, { once: true });
  return true;
}

/**
 * Has `watcher.handleEvent()` called once if the call is aborted (timed out, the run
 * cancelled) — the same moment `context.signal` would fire, and why is then
 * `context.signal.reason` — without making the call an `AbortController` when nothing
 * aborts it (the executor's own contexts; any other context's `signal` is watched). `false`
 * when the call is aborted already (then nothing is watched). Undo with
 * {@link unwatchAbort} once the call no longer cares.
 *
 * @internal
 */
export function watchAbort(context: ToolContext, watcher: AbortWatcher): boolean {
  return context instanceof CallContext
    ? context.watchAbort(watcher)
    : watchSignal(context.signal, watcher);
}

/**
 * Stops what {@link watchAbort} started.
 *
 * @internal
 */
export function unwatchAbort(context: ToolContext, watcher: AbortWatcher): void {
  if (context instanceof CallContext) context.unwatchAbort(watcher);
  else context.signal.removeEventListener('abort', watcher);
}
