import type { ToolContext, ToolProgress } from '@mtpx/executor';
import { unwatchAbort, watchAbort } from '@mtpx/executor/internal';
import { Deadlined, type DeadlineList } from './deadline-list';
import { deadlineExceeded } from './dispatch-outcomes';
import { stateProgress } from './remote-call-state';
import type { CallJobResult } from './wire';

/** How one call is dispatched. */
export interface DispatchOptions {
  /** BullMQ attempts: 1 + the tool's `retries`. The only retry policy a remote call has. */
  attempts: number;
  /**
   * The call's context: its abort (watched without making it a signal) cancels the job —
   * removed while waiting, signalled while running; the worker's `reportProgress` calls and
   * the call's remote state changes go to its `reportProgress`.
   */
  context: ToolContext;
  /** With no answer by then (queueing, every attempt, the way back), the call ends: `deadline_exceeded`. */
  deadlines: DeadlineList;
}

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
 * holds its promise's ends, its place in its deadline list and its abort watch
 * (`handleEvent`) — no timer and no `AbortController` of its own.
 */
export class CallWaiter extends Deadlined implements Waiter {
  readonly #dispatcher: WaiterHost;
  readonly #jobId: string;
  readonly #options: DispatchOptions;
  readonly #resolve: (result: CallJobResult) => void;
  readonly #reject: (error: unknown) => void;
  /** True when the call was aborted before it could wait (it was rejected at once). */
  readonly aborted: boolean;

  constructor(
    dispatcher: WaiterHost,
    jobId: string,
    options: DispatchOptions,
    resolve: (result: CallJobResult) => void,
    reject: (error: unknown) => void,
  ) {
    super();
    this.#dispatcher = dispatcher;
    this.#jobId = jobId;
    this.#options = options;
    this.#resolve = resolve;
    this.#reject = reject;
    this.aborted = !watchAbort(options.context, this);
    if (this.aborted) reject(options.context.signal.reason);
    else options.deadlines.add(this);
  }

  #done(): void {
    this.#options.deadlines.remove(this);
    unwatchAbort(this.#options.context, this);
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
    this.#options.context.reportProgress(progress);
  }

  /** The call was aborted (the abort watch). */
  handleEvent(): void {
    this.#done();
    this.#dispatcher.leave(this.#jobId, this);
    this.#reject(this.#options.context.signal.reason);
  }

  /** The deadline passed with no answer (it has left its deadline list). */
  expire(): void {
    this.#done();
    this.progress(stateProgress('deadline-exceeded', this.#jobId));
    this.#dispatcher.leave(this.#jobId, this);
    this.#reject(deadlineExceeded(this.#options.deadlines.ms));
  }
}
