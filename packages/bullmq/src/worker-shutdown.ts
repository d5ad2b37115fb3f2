import { type Job, WaitingError } from 'bullmq';
import { CallStop, type StopReason } from './call-stop';

/** What {@link ToolWorker.close} did with the calls it held. */
export interface ToolWorkerClosed {
  /** Job ids of the calls that finished (answered) while the worker closed. */
  finished: string[];
  /** Job ids of the calls handed back to the queue at the deadline (another worker runs them). */
  handedBack: string[];
}

/**
 * The calls a worker runs, so the run can cancel one (a message on the cancel channel) and
 * a closing worker can hand back those still running at its deadline: their tool's
 * `signal` aborts, and each job goes back to the front of the wait list with its lock
 * released (`moveToWait`) — not failed, not stalled, its attempts unchanged — where the
 * next free worker takes it.
 */
export class CallsInFlight {
  readonly #calls = new Map<string, CallStop>();
  readonly #closed: ToolWorkerClosed = { finished: [], handedBack: [] };
  #closing = false;

  /** The report so far (complete once the BullMQ worker has closed). */
  get report(): ToolWorkerClosed {
    return this.#closed;
  }

  /** Tracks a call's attempt from its start. */
  begin(jobId: string): CallStop {
    const stop = new CallStop();
    this.#calls.set(jobId, stop);
    return stop;
  }

  /** The run cancelled the call: its attempt stops (if it runs here). */
  cancel(jobId: string): void {
    this.#calls.get(jobId)?.stop('cancelled');
  }

  /**
   * The attempt has settled (call it synchronously after it): why it was stopped, if it
   * was — a handed-back call must go back to the queue ({@link handBack}), not be answered.
   */
  finish(jobId: string): StopReason | undefined {
    const stop = this.#calls.get(jobId);
    this.#calls.delete(jobId);
    if (stop === undefined) return undefined;
    if (stop.reason === 'handed-back') this.#closed.handedBack.push(jobId);
    else if (this.#closing) this.#closed.finished.push(jobId);
    return stop.reason;
  }

  /** The worker is closing: calls that finish from now on are reported as finished. */
  closing(): void {
    this.#closing = true;
  }

  /** Hands back every call still running (their attempt has not settled). */
  handBackAll(): void {
    for (const stop of this.#calls.values()) stop.stop('handed-back');
  }
}

/**
 * Puts a handed-back job back on the queue and tells BullMQ so (its `WaitingError`: the
 * worker neither completes nor fails the job). Should `moveToWait` fail or hang (the lock
 * already lost, Redis unreachable), the stall check moves the job back instead.
 */
export async function handBack(job: Job, token: string | undefined): Promise<never> {
  if (token !== undefined) {
    // Redis unreachable: give up after a while (the lock then expires and the stall check
    // moves the job back, if Redis kept it).
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      job.moveToWait(token).catch(() => {}),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, handBackWaitMs);
      }),
    ]);
    clearTimeout(timer);
  }
  throw new WaitingError('handed back by a closing worker');
}

/** How long a hand-back waits for Redis to take the job back. */
const handBackWaitMs = 2_000;

/** How long a closing worker waits, past its deadline, for BullMQ to close before it drops its connections. */
export const closeGraceMs = 5_000;
