import type { ToolProgress } from '@mtpx/executor';
import { isJsonObject } from '@mtpx/protocol';
import { Job, Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import { RemoteToolError } from './errors';
import { bullConnection, ownClient, type ResolvedLocation } from './queue-names';
import { type CallJobData, type CallJobResult, parseJobResult } from './wire';

/** How one call is dispatched. */
export interface DispatchOptions {
  /** BullMQ attempts: 1 + the tool's `retries`. The only retry policy a remote call has. */
  attempts: number;
  /** Aborting it cancels the job: removed while waiting, signalled while running. */
  signal: AbortSignal;
  /** Receives the worker's `reportProgress` calls. */
  onProgress: (progress: ToolProgress) => void;
}

interface Waiter {
  resolve(result: CallJobResult): void;
  reject(error: unknown): void;
  progress(progress: ToolProgress): void;
}

/**
 * The orchestrator's end of one queue: adds a job per call and routes what comes back —
 * `completed`, `failed`, `progress`, `duplicated` — from one QueueEvents reader to the
 * calls waiting for it. The reader starts at the events stream's last entry as it was
 * before any job was added, so no answer can slip past it.
 */
export class CallDispatcher {
  readonly #location: ResolvedLocation;
  readonly #keepSeconds: number;
  readonly #waiters = new Map<string, Set<Waiter>>();
  /** What each waited-for job was enqueued with (to enqueue it again after a cancellation). */
  readonly #requests = new Map<string, { data: CallJobData; attempts: number }>();
  #started: Promise<{ queue: Queue; events: QueueEvents; client: Redis }> | undefined;
  #closed = false;

  constructor(location: ResolvedLocation, keepSeconds: number) {
    this.#location = location;
    this.#keepSeconds = keepSeconds;
  }

  /** Connects (once); every dispatch awaits it. */
  ready(): Promise<void> {
    return this.#start().then(() => undefined);
  }

  /** Enqueues the call (at most once per job id) and resolves with the worker's answer. */
  async dispatch(
    jobId: string,
    data: CallJobData,
    options: DispatchOptions,
  ): Promise<CallJobResult> {
    const { queue } = await this.#start();
    const { signal } = options;
    signal.throwIfAborted();
    return new Promise<CallJobResult>((resolve, reject) => {
      const onAbort = () => {
        this.#forget(jobId, waiter);
        this.cancel(jobId).catch(() => {}); // best effort: the run has moved on
        reject(signal.reason);
      };
      const waiter: Waiter = {
        resolve: (result) => {
          signal.removeEventListener('abort', onAbort);
          resolve(result);
        },
        reject: (error) => {
          signal.removeEventListener('abort', onAbort);
          reject(error);
        },
        progress: options.onProgress,
      };
      let waiters = this.#waiters.get(jobId);
      if (waiters === undefined) {
        waiters = new Set();
        this.#waiters.set(jobId, waiters);
      }
      waiters.add(waiter);
      signal.addEventListener('abort', onAbort, { once: true });
      this.#requests.set(jobId, { data, attempts: options.attempts });
      this.#enqueue(queue, jobId);
    });
  }

  #enqueue(queue: Queue, jobId: string): void {
    const request = this.#requests.get(jobId);
    if (request === undefined) return;
    const keep = { age: this.#keepSeconds };
    queue
      .add(request.data.tool, request.data, {
        jobId,
        attempts: request.attempts,
        backoff: { type: 'mtpx' },
        removeOnComplete: keep,
        removeOnFail: keep,
      })
      .catch((error: unknown) => this.#settle(jobId, (each) => each.reject(error)));
  }

  /**
   * Cancels a job: marks it cancelled (a worker that picks it up later skips it), removes
   * it if it is still waiting, and otherwise tells the workers to abort it. A cancelled
   * call is not an answered one: dispatching it again (a resumed run) runs it afresh.
   */
  async cancel(jobId: string): Promise<void> {
    const { queue, client } = await this.#start();
    const job = await Job.fromId(queue, jobId);
    if (job === undefined) return;
    // The mark names the job's creation time: a later job with the same id is not cancelled.
    const mark = String(job.timestamp);
    await client.set(this.#location.cancelledKey(jobId), mark, 'EX', this.#keepSeconds);
    const removed = await queue.remove(jobId).catch(() => 0);
    if (removed !== 1) await client.publish(this.#location.cancelChannel, jobId);
  }

  /** Stops reading answers and closes the connections; calls still waiting reject (`closed`). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const closed = new RemoteToolError({
      code: 'closed',
      message: 'The remote tools were closed.',
    });
    for (const jobId of [...this.#waiters.keys()])
      this.#settle(jobId, (each) => each.reject(closed));
    if (this.#started === undefined) return;
    const { queue, events, client } = await this.#started.catch(() => ({
      queue: undefined,
      events: undefined,
      client: undefined,
    }));
    await Promise.allSettled([events?.close(), queue?.close(), client?.quit()]);
  }

  #start(): Promise<{ queue: Queue; events: QueueEvents; client: Redis }> {
    if (this.#closed) {
      return Promise.reject(
        new RemoteToolError({ code: 'closed', message: 'The remote tools were closed.' }),
      );
    }
    this.#started ??= this.#connect();
    return this.#started;
  }

  async #connect(): Promise<{ queue: Queue; events: QueueEvents; client: Redis }> {
    const { connection, queue: name, prefix } = this.#location;
    const client = ownClient(connection);
    const last = (await client.xrevrange(`${prefix}:${name}:events`, '+', '-', 'COUNT', 1)) as [
      string,
      string[],
    ][];
    const events = new QueueEvents(name, {
      connection: bullConnection(this.#location),
      prefix,
      lastEventId: last[0]?.[0] ?? '0-0',
    });
    events.on('error', () => {}); // BullMQ reconnects by itself; a waiting call is not failed by a blip
    events.on('completed', ({ jobId, returnvalue }) => {
      this.#answer(jobId, returnvalue);
    });
    // A failure may be a cancellation by an earlier run, which is no answer: look closer.
    events.on('failed', ({ jobId }) => {
      this.#recheck(jobId);
    });
    events.on('progress', ({ jobId, data }) => {
      const progress = toProgress(data);
      if (progress !== undefined) this.#each(jobId, (waiter) => waiter.progress(progress));
    });
    events.on('duplicated', ({ jobId }) => {
      this.#recheck(jobId);
    });
    const queue = new Queue(name, { connection: bullConnection(this.#location), prefix });
    queue.on('error', () => {});
    await Promise.all([events.waitUntilReady(), queue.waitUntilReady()]);
    return { queue, events, client };
  }

  /** The job was there already (another process added it): it may have finished before we listened. */
  #recheck(jobId: string): void {
    if (!this.#waiters.has(jobId)) return;
    this.#start()
      .then(async ({ queue, client }) => {
        const job = await Job.fromId(queue, jobId);
        if (job === undefined) return this.#enqueue(queue, jobId); // removed meanwhile
        const state = await job.getState();
        if (state === 'completed') return this.#answer(jobId, job.returnvalue);
        if (state !== 'failed') return; // waiting or running: its answer will come
        const cancelledKey = this.#location.cancelledKey(jobId);
        if ((await client.get(cancelledKey)) === String(job.timestamp)) {
          // An earlier run cancelled it: that was no answer, so the call runs again.
          await job.remove();
          await client.del(cancelledKey);
          return this.#enqueue(queue, jobId);
        }
        this.#fail(jobId, job.failedReason);
      })
      .catch((error: unknown) => this.#settle(jobId, (waiter) => waiter.reject(error)));
  }

  #answer(jobId: string, value: unknown): void {
    if (!this.#waiters.has(jobId)) return;
    let result: CallJobResult;
    try {
      result = parseJobResult(value);
    } catch (error) {
      this.#settle(jobId, (waiter) => waiter.reject(error));
      return;
    }
    this.#settle(jobId, (waiter) => waiter.resolve(result));
  }

  #fail(jobId: string, reason: string | undefined): void {
    const error = new RemoteToolError({
      code: 'job_failed',
      message: `The call's job failed on the worker side: ${reason || 'no reason given'}.`,
    });
    this.#settle(jobId, (waiter) => waiter.reject(error));
  }

  #each(jobId: string, visit: (waiter: Waiter) => void): void {
    const waiters = this.#waiters.get(jobId);
    if (waiters !== undefined) for (const waiter of waiters) visit(waiter);
  }

  #settle(jobId: string, visit: (waiter: Waiter) => void): void {
    const waiters = this.#waiters.get(jobId);
    if (waiters === undefined) return;
    this.#waiters.delete(jobId);
    this.#requests.delete(jobId);
    for (const waiter of waiters) visit(waiter);
  }

  #forget(jobId: string, waiter: Waiter): void {
    const waiters = this.#waiters.get(jobId);
    waiters?.delete(waiter);
    if (waiters?.size === 0) {
      this.#waiters.delete(jobId);
      this.#requests.delete(jobId);
    }
  }
}

/** A worker's progress report, kept to the {@link ToolProgress} fields. */
function toProgress(data: unknown): ToolProgress | undefined {
  if (!isJsonObject(data)) return undefined;
  const progress: ToolProgress = {};
  if (typeof data.message === 'string') progress.message = data.message;
  if (typeof data.completed === 'number') progress.completed = data.completed;
  if (typeof data.total === 'number') progress.total = data.total;
  if (data.data !== undefined) progress.data = data.data;
  return progress;
}
