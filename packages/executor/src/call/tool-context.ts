import type { JsonObject, ToolCall } from '@mtpx/protocol';
import { type CallNode, CallState } from '../run/call-node';
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
}
