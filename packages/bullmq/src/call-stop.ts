/** Why a call's attempt on a worker was stopped before its tool answered. */
export type StopReason = 'cancelled' | 'handed-back' | 'timeout';

const reasons: Record<StopReason, () => unknown> = {
  cancelled: () => new DOMException('The run cancelled this call.', 'AbortError'),
  'handed-back': () => new DOMException('Handed back by a closing worker.', 'AbortError'),
  timeout: () => new DOMException('The call ran past its time limit.', 'TimeoutError'),
};

/**
 * How one attempt can be stopped — cancelled by the run, handed back by a closing worker,
 * past its time limit — without an `AbortController` until the tool reads its `signal`
 * (most tools never do; Node's abort signals cost more than a short tool call).
 */
export class CallStop {
  #controller: AbortController | undefined;
  #reason: StopReason | undefined;
  #listener: ((reason: StopReason) => void) | undefined;

  /** Why it was stopped, once it was. */
  get reason(): StopReason | undefined {
    return this.#reason;
  }

  /** The tool's `context.signal`: made on first read, aborted with the stop's reason. */
  get signal(): AbortSignal {
    this.#controller ??= new AbortController();
    const reason = this.#reason;
    if (reason !== undefined && !this.#controller.signal.aborted) {
      this.#controller.abort(reasons[reason]());
    }
    return this.#controller.signal;
  }

  /** Stops the attempt (the first reason wins). */
  stop(reason: StopReason): void {
    if (this.#reason !== undefined) return;
    this.#reason = reason;
    this.#controller?.abort(reasons[reason]());
    this.#listener?.(reason);
  }

  /** Tells `listener` when the attempt is stopped (at once if it already was). One listener. */
  onStop(listener: (reason: StopReason) => void): void {
    this.#listener = listener;
    if (this.#reason !== undefined) listener(this.#reason);
  }
}
