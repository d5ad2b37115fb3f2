import { type Job, WaitingError } from 'bullmq';

/** What {@link ToolWorker.close} did with the calls it held. */
export interface ToolWorkerClosed {
  /** Job ids of the calls that finished (answered) while the worker closed. */
  finished: string[];
  /** Job ids of the calls handed back to the queue at the deadline (another worker runs them). */
  handedBack: string[];
}

/**
 * The calls a worker runs, so a closing worker can hand back those still running at its
 * deadline: their tool's `signal` aborts, and each job goes back to the front of the wait
 * list with its lock released (`moveToWait`) — not failed, not stalled, its attempts
 * unchanged — where the next free worker takes it.
 */
export class CallsInFlight {
  readonly #calls = new Map<string, AbortController>();
  readonly #closed: ToolWorkerClosed = { finished: [], handedBack: [] };
  #closing = false;

  /** The report so far (complete once the BullMQ worker has closed). */
  get report(): ToolWorkerClosed {
    return this.#closed;
  }

  /**
   * Tracks a call's attempt from its start: the returned signal aborts when the call is
   * handed back (and when `jobSignal`, BullMQ's cancellation, aborts).
   */
  begin(jobId: string, jobSignal: AbortSignal | undefined): AbortSignal {
    const controller = new AbortController();
    this.#calls.set(jobId, controller);
    if (jobSignal?.aborted) controller.abort(jobSignal.reason);
    else
      jobSignal?.addEventListener('abort', () => controller.abort(jobSignal.reason), {
        once: true,
      });
    return controller.signal;
  }

  /**
   * The attempt has settled (call it synchronously after it): true when the call was handed
   * back before that — it must then go back to the queue ({@link handBack}), not be answered.
   */
  finish(jobId: string, jobSignal: AbortSignal | undefined): boolean {
    const controller = this.#calls.get(jobId);
    this.#calls.delete(jobId);
    if (controller === undefined) return false;
    const handedBack = controller.signal.aborted && jobSignal?.aborted !== true;
    if (handedBack) this.#closed.handedBack.push(jobId);
    else if (this.#closing) this.#closed.finished.push(jobId);
    return handedBack;
  }

  /** The worker is closing: calls that finish from now on are reported as finished. */
  closing(): void {
    this.#closing = true;
  }

  /** Hands back every call still running (their attempt has not settled). */
  handBackAll(): void {
    for (const controller of this.#calls.values()) {
      controller.abort(new Error('handed back by a closing worker'));
    }
  }
}

/**
 * Puts a handed-back job back on the queue and tells BullMQ so (its `WaitingError`: the
 * worker neither completes nor fails the job). Should `moveToWait` fail (the lock already
 * lost), the stall check moves the job back instead.
 */
export async function handBack(job: Job, token: string | undefined): Promise<never> {
  if (token !== undefined) await job.moveToWait(token).catch(() => {});
  throw new WaitingError('handed back by a closing worker');
}
