import type { ToolProgress } from '@mtpx/executor';
import type { DispatchOptions } from './call-dispatcher';
import { deadlineExceeded } from './dispatch-outcomes';
import { stateProgress } from './remote-call-state';
import type { CallJobResult } from './wire';

/** Where a waiter that gives up goes (the dispatcher). */
export interface WaiterHost {
  leave(jobId: string, waiter: Waiter): void;
}

/** A call waiting for a job's answer (internal). */
export interface Waiter {
  resolve(result: CallJobResult): void;
  reject(error: unknown): void;
  progress(progress: ToolProgress): void;
}

/**
 * One dispatched call waiting for its answer. A class, not closures: one object per call
 * holds its promise's ends, its deadline timer and its abort listener (`handleEvent`).
 */
export class CallWaiter implements Waiter {
  readonly #dispatcher: WaiterHost;
  readonly #jobId: string;
  readonly #options: DispatchOptions;
  readonly #resolve: (result: CallJobResult) => void;
  readonly #reject: (error: unknown) => void;
  readonly #deadline: ReturnType<typeof setTimeout>;

  constructor(
    dispatcher: WaiterHost,
    jobId: string,
    options: DispatchOptions,
    resolve: (result: CallJobResult) => void,
    reject: (error: unknown) => void,
  ) {
    this.#dispatcher = dispatcher;
    this.#jobId = jobId;
    this.#options = options;
    this.#resolve = resolve;
    this.#reject = reject;
    this.#deadline = setTimeout(deadlinePassed, options.deadlineMs, this);
    options.signal.addEventListener('abort', this, { once: true });
  }

  #done(): void {
    clearTimeout(this.#deadline);
    this.#options.signal.removeEventListener('abort', this);
  }

  resolve(result: CallJobResult): void {
    this.#done();
    this.#resolve(result);
  }

  reject(error: unknown): void {
    this.#done();
    this.#reject(error);
  }

  progress(progress: ToolProgress): void {
    this.#options.onProgress(progress);
  }

  /** The call's signal aborted (the `abort` listener). */
  handleEvent(): void {
    this.#done();
    this.#dispatcher.leave(this.#jobId, this);
    this.#reject(this.#options.signal.reason);
  }

  /** The deadline passed with no answer. */
  expire(): void {
    this.#done();
    this.progress(stateProgress('deadline-exceeded', this.#jobId));
    this.#dispatcher.leave(this.#jobId, this);
    this.#reject(deadlineExceeded(this.#options.deadlineMs));
  }
}

function deadlinePassed(waiter: CallWaiter): void {
  waiter.expire();
}
