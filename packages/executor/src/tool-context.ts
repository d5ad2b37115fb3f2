import type { ToolCall } from '@mtpx/protocol';
import { type CallNode, CallState } from './call-node';
import type { ToolContext, ToolProgress } from './define-tool';
import type { Run } from './execution-run';

/**
 * The `context` of one attempt. Its signal is the attempt's own: made up front when the
 * attempt has a time limit, otherwise only when the tool first reads `signal` — tools
 * that never look at it cost no AbortController, and no two calls share a signal (so
 * listeners that tools or `fetch` add never pile up on one target). Cancelling the run
 * aborts it through `node.controller`.
 */
export class CallContext implements ToolContext {
  readonly call: ToolCall;
  readonly attempt: number;
  readonly runId: string | undefined;
  /** An arrow function, so `{ reportProgress }` can be destructured. */
  readonly reportProgress: (progress: ToolProgress) => void;
  readonly #run: Run;
  readonly #node: CallNode;
  #controller: AbortController | undefined;

  constructor(
    run: Run,
    node: CallNode,
    call: ToolCall,
    attempt: number,
    controller: AbortController | undefined,
  ) {
    this.#run = run;
    this.#node = node;
    this.#controller = controller;
    this.call = call;
    this.attempt = attempt;
    this.runId = run.runId;
    this.reportProgress = (progress) => run.progress(node, progress);
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
