import type { JobsOptions, Queue } from 'bullmq';
import type { CallJobData } from './wire';

/** One job to add, as a call's enqueue asked for it. */
export interface JobToAdd {
  readonly jobId: string;
  /** The call's enqueue this job belongs to (a later enqueue of the same call supersedes it). */
  readonly epoch: number;
  readonly data: CallJobData;
  readonly opts: JobsOptions;
}

/** What the dispatcher says and hears about the jobs of a batch. */
export interface AddTarget {
  /** False when the call no longer waits for this enqueue (answered, aborted, re-enqueued). */
  wants(job: JobToAdd): boolean;
  /** Redis took the job (or already had it). */
  added(job: JobToAdd): void;
  /** Redis did not take the job. */
  failed(job: JobToAdd, error: unknown): void;
}

/**
 * The jobs of the calls dispatched in one turn of the event loop, added together: the
 * calls a finished call releases start in the same tick, and one pipelined `addBulk` (one
 * write, one round trip) costs the orchestrator and Redis less than one `add` each. A
 * lone job goes through `add`. A batch Redis refuses is retried job by job, so each call
 * learns its own fate, as with `add` alone.
 */
export class AddBatch {
  readonly #target: AddTarget;
  #queue: Queue | undefined;
  #jobs: JobToAdd[] = [];
  #scheduled = false;

  constructor(target: AddTarget) {
    this.#target = target;
  }

  /** Adds `job` to `queue` at the end of this tick (with the others of the tick). */
  add(queue: Queue, job: JobToAdd): void {
    if (this.#queue !== undefined && this.#queue !== queue) this.#flush();
    this.#queue = queue;
    this.#jobs.push(job);
    if (!this.#scheduled) {
      this.#scheduled = true;
      process.nextTick(this.#flush);
    }
  }

  readonly #flush = (): void => {
    this.#scheduled = false;
    const queue = this.#queue;
    const jobs = this.#jobs.filter((job) => this.#target.wants(job));
    this.#jobs = [];
    this.#queue = undefined;
    if (queue === undefined || jobs.length === 0) return;
    if (jobs.length === 1) {
      this.#addOne(queue, jobs[0] as JobToAdd);
      return;
    }
    queue
      .addBulk(jobs.map((job) => ({ name: job.data.tool, data: job.data, opts: job.opts })))
      .then(
        () => {
          for (const job of jobs) this.#target.added(job);
        },
        () => {
          // Redis refused the batch: each job on its own (one already added is `duplicated`).
          for (const job of jobs) if (this.#target.wants(job)) this.#addOne(queue, job);
        },
      );
  };

  #addOne(queue: Queue, job: JobToAdd): void {
    queue.add(job.data.tool, job.data, job.opts).then(
      () => this.#target.added(job),
      (error: unknown) => this.#target.failed(job, error),
    );
  }
}
