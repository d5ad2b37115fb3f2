import { Job, Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import { AddBatch } from './add-batch';
import { CallWaiter, type DispatchOptions, type Waiter } from './call-waiter';
import { closedError, jobLost, redisUnavailable, toProgress } from './dispatch-outcomes';
import { RemoteToolError } from './errors';
import { cancelJob, jobPresence } from './job-presence';
import { bullConnection, closeOrDrop, ownClient, type ResolvedLocation } from './queue-names';
import { stateProgress } from './remote-call-state';
import { type CallJobData, type CallJobResult, parseJobResult } from './wire';

/** How the dispatcher keeps jobs and watches them. */
export interface DispatcherSettings {
  /** How long finished jobs (and cancellation marks) stay in Redis, in seconds. */
  keepSeconds: number;
  /** How often the jobs waited for are looked for in Redis (a lost one fails its call). */
  lostCheckMs: number;
}

/** How long `close` waits for Redis before it drops the connections. */
const closeWaitMs = 2_000;

/** One job waited for: its calls (usually one), what it was enqueued with, where it stands. */
interface PendingJob {
  readonly waiters: Set<Waiter>;
  readonly data: CallJobData;
  readonly attempts: number;
  /** Bumped at each enqueue: a presence check acts only on the enqueue it looked at. */
  epoch: number;
  /** `queue.add` answered for this epoch: the job exists in Redis (or did). */
  enqueued: boolean;
  /** Presence checks in a row that found the job finished with its answer not yet here. */
  finishedSeen: number;
}

interface Connected {
  queue: Queue;
  events: QueueEvents;
  client: Redis;
}

/**
 * The orchestrator's end of one queue: adds a job per call and routes what comes back —
 * `completed`, `failed`, `progress`, `duplicated` — from one QueueEvents reader to the
 * calls waiting for it. The reader starts at the events stream's last entry as it was
 * before any job was added, so no answer can slip past it. Every call ends: with its
 * answer, at its deadline, or — when its job vanished from Redis — as lost; the jobs waited
 * for are looked for every `lostCheckMs` and at once when a lost connection returns.
 */
export class CallDispatcher {
  readonly #location: ResolvedLocation;
  readonly #settings: DispatcherSettings;
  readonly #pending = new Map<string, PendingJob>();
  /** How long finished jobs stay (one object for every job's options). */
  readonly #keep: { age: number };
  #started: Promise<Connected> | undefined;
  #connected: Connected | undefined;
  /** What `#connect` has made so far (closed without waiting if the dispatcher closes first). */
  readonly #connecting: Array<Redis | Queue | QueueEvents> = [];
  #online = false;
  #checking = false;
  /** Jobs being looked at again, each with whether another look was asked for meanwhile. */
  readonly #rechecks = new Map<string, boolean>();
  #watch: ReturnType<typeof setInterval> | undefined;
  #closed = false;

  constructor(location: ResolvedLocation, settings: DispatcherSettings) {
    this.#location = location;
    this.#settings = settings;
    this.#keep = { age: settings.keepSeconds };
  }

  /** Connects (once); every dispatch awaits it. */
  ready(): Promise<void> {
    return this.#start().then(() => undefined);
  }

  /**
   * Enqueues the call (at most once per job id) and resolves with the worker's answer. Its
   * deadline runs from now: connecting to Redis counts.
   */
  dispatch(jobId: string, data: CallJobData, options: DispatchOptions): Promise<CallJobResult> {
    return new Promise<CallJobResult>((resolve, reject) => {
      const waiter = new CallWaiter(this, jobId, options, resolve, reject);
      if (waiter.aborted) return;
      let pending = this.#pending.get(jobId);
      if (pending !== undefined) {
        pending.waiters.add(waiter); // the same call dispatched twice here: one job, one answer
        return;
      }
      pending = {
        waiters: new Set([waiter]),
        data,
        attempts: options.attempts,
        epoch: 0,
        enqueued: false,
        finishedSeen: 0,
      };
      this.#pending.set(jobId, pending);
      if (this.#connected !== undefined && !this.#closed) {
        this.#enqueue(this.#connected.queue, jobId);
        return;
      }
      this.#start().then(
        ({ queue }) => {
          if (this.#pending.get(jobId)?.epoch === 0) this.#enqueue(queue, jobId);
        },
        (error: unknown) => this.#settle(jobId, (each) => each.reject(error)),
      );
    });
  }

  #enqueue(queue: Queue, jobId: string): void {
    const pending = this.#pending.get(jobId);
    if (pending === undefined) return;
    pending.epoch += 1;
    pending.enqueued = false;
    pending.finishedSeen = 0;
    const keep = this.#keep;
    this.#adds.add(queue, {
      jobId,
      epoch: pending.epoch,
      data: pending.data,
      // Only a job that may be retried needs its backoff (a smaller job is cheaper to move).
      opts:
        pending.attempts > 1
          ? {
              jobId,
              attempts: pending.attempts,
              backoff: { type: 'mtpx' },
              removeOnComplete: keep,
              removeOnFail: keep,
            }
          : { jobId, attempts: 1, removeOnComplete: keep, removeOnFail: keep },
    });
  }

  /** The jobs of this tick's enqueues, added together (see {@link AddBatch}). */
  readonly #adds = new AddBatch({
    wants: (job) => this.#pending.get(job.jobId)?.epoch === job.epoch,
    added: (job) => {
      const pending = this.#pending.get(job.jobId);
      if (pending?.epoch === job.epoch) pending.enqueued = true;
    },
    failed: (job, error) => {
      if (this.#pending.get(job.jobId)?.epoch !== job.epoch) return;
      const failure = redisUnavailable(error);
      this.#settle(job.jobId, (each) => each.reject(failure));
    },
  });

  /**
   * A waiter gives up (aborted, or its deadline passed): the job is cancelled once nobody
   * waits (internal).
   */
  leave(jobId: string, waiter: Waiter): void {
    const pending = this.#pending.get(jobId);
    if (pending === undefined || !pending.waiters.delete(waiter)) return;
    if (pending.waiters.size > 0) return;
    this.#pending.delete(jobId);
    this.cancel(jobId).catch(() => {}); // best effort: the run has moved on
  }

  /** Cancels a job (see {@link cancelJob}). */
  async cancel(jobId: string): Promise<void> {
    const { queue, client } = await this.#start();
    await cancelJob({ queue, client, location: this.#location, jobId }, this.#settings.keepSeconds);
  }

  /** Stops reading answers and closes the connections; calls still waiting reject (`closed`). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#watch);
    const closed = closedError();
    for (const jobId of [...this.#pending.keys()]) {
      this.#settle(jobId, (each) => each.reject(closed));
    }
    const connected = this.#connected;
    // Still connecting (Redis unreachable): drop what exists without waiting for Redis.
    if (connected === undefined) return closeOrDrop(this.#connecting, 0);
    const { queue, events, client } = connected;
    await closeOrDrop([events, queue, client], closeWaitMs);
  }

  #start(): Promise<Connected> {
    if (this.#closed) {
      return Promise.reject(closedError());
    }
    this.#started ??= this.#connect();
    return this.#started;
  }

  async #connect(): Promise<Connected> {
    const { connection, queue: name, prefix } = this.#location;
    const client = ownClient(connection);
    this.#connecting.push(client);
    client.on('error', () => {}); // ioredis reconnects; lost and returning connections are call states
    const last = (await client.xrevrange(`${prefix}:${name}:events`, '+', '-', 'COUNT', 1)) as [
      string,
      string[],
    ][];
    const events = new QueueEvents(name, {
      connection: bullConnection(this.#location),
      prefix,
      lastEventId: last[0]?.[0] ?? '0-0',
    });
    this.#connecting.push(events);
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
    this.#connecting.push(queue);
    queue.on('error', () => {});
    await Promise.all([events.waitUntilReady(), queue.waitUntilReady()]);
    if (this.#closed) throw closedError();
    const connected = { queue, events, client };
    this.#connected = connected;
    this.#watchConnection(client);
    return connected;
  }

  /**
   * Tells each waiting call when the connection to Redis goes and comes back (as
   * `call-progress` events), looks for its job at once when it is back, and every
   * `lostCheckMs` while connected.
   */
  #watchConnection(client: Redis): void {
    this.#online = client.status === 'ready';
    client.on('close', () => {
      if (!this.#online || this.#closed) return;
      this.#online = false;
      this.#broadcast('disconnected');
    });
    client.on('ready', () => {
      if (this.#online || this.#closed) return;
      this.#online = true;
      this.#broadcast('reconnected');
      void this.#checkPresence();
    });
    this.#watch = setInterval(() => void this.#checkPresence(), this.#settings.lostCheckMs);
    this.#watch.unref();
  }

  #broadcast(state: 'disconnected' | 'reconnected'): void {
    for (const [jobId, pending] of this.#pending) {
      const progress = stateProgress(state, jobId);
      for (const waiter of pending.waiters) waiter.progress(progress);
    }
  }

  /** Fails the calls whose job is gone from Redis; asks again about finished ones whose answer did not come. */
  async #checkPresence(): Promise<void> {
    const connected = this.#connected;
    if (this.#checking || !this.#online || this.#closed || connected === undefined) return;
    const looked = [...this.#pending].filter(([, pending]) => pending.enqueued);
    if (looked.length === 0) return;
    this.#checking = true;
    try {
      const epochs = new Map(looked.map(([jobId, pending]) => [jobId, pending.epoch]));
      const { prefix, queue } = this.#location;
      const presence = await jobPresence(
        connected.client,
        (jobId) => `${prefix}:${queue}:${jobId}`,
        [...epochs.keys()],
      );
      const current = (jobId: string) => {
        const pending = this.#pending.get(jobId);
        return pending?.enqueued && pending.epoch === epochs.get(jobId) ? pending : undefined;
      };
      for (const jobId of presence.missing) if (current(jobId)) this.#lose(jobId);
      const finished = new Set(presence.finished);
      for (const jobId of epochs.keys()) {
        const pending = current(jobId);
        if (pending === undefined) continue;
        pending.finishedSeen = finished.has(jobId) ? pending.finishedSeen + 1 : 0;
        // Finished at two looks in a row and still no answer: it went by while we were away.
        if (pending.finishedSeen >= 2) this.#recheck(jobId);
      }
    } catch {
      // Redis went away mid-look: the next look (or the reconnection) tries again.
    } finally {
      this.#checking = false;
    }
  }

  #lose(jobId: string): void {
    const error = jobLost();
    const progress = stateProgress('lost', jobId);
    this.#settle(jobId, (waiter) => {
      waiter.progress(progress);
      waiter.reject(error);
    });
  }

  /**
   * Looks at the job again: it was there already (another process added it, or an earlier
   * run left it), it failed, or it finished with its answer unseen. Events can arrive late
   * and several at once (a `failed` from an earlier run beside this dispatch's
   * `duplicated`): one look per job at a time, and one more if asked for meanwhile.
   */
  #recheck(jobId: string): void {
    if (!this.#pending.has(jobId)) return;
    if (this.#rechecks.has(jobId)) {
      this.#rechecks.set(jobId, true);
      return;
    }
    this.#rechecks.set(jobId, false);
    this.#start()
      .then(({ queue, client }) => this.#lookAgain(queue, client, jobId))
      .catch((error: unknown) => this.#settle(jobId, (waiter) => waiter.reject(error)))
      .finally(() => {
        const askedAgain = this.#rechecks.get(jobId) === true;
        this.#rechecks.delete(jobId);
        if (askedAgain) this.#recheck(jobId);
      });
  }

  async #lookAgain(queue: Queue, client: Redis, jobId: string): Promise<void> {
    if (!this.#pending.has(jobId)) return;
    // Its state first, then its fields: a job read before its state may predate its answer.
    const state = await queue.getJobState(jobId);
    if (state !== 'completed' && state !== 'failed' && state !== 'unknown') return; // its answer will come
    const job = state === 'unknown' ? undefined : await Job.fromId(queue, jobId);
    if (job === undefined) return this.#enqueue(queue, jobId); // removed meanwhile
    if (job.finishedOn === undefined) return; // added again meanwhile: its answer will come
    if (state === 'completed') return this.#answer(jobId, job.returnvalue);
    const cancelledKey = this.#location.cancelledKey(jobId);
    if ((await client.get(cancelledKey)) === String(job.timestamp)) {
      // An earlier run cancelled it: that was no answer, so the call runs again.
      await job.remove();
      await client.del(cancelledKey);
      return this.#enqueue(queue, jobId);
    }
    this.#fail(jobId, job.failedReason);
  }

  #answer(jobId: string, value: unknown): void {
    const pending = this.#pending.get(jobId);
    if (pending === undefined) return;
    let result: CallJobResult;
    try {
      result = parseJobResult(value);
    } catch (error) {
      this.#settle(jobId, (waiter) => waiter.reject(error));
      return;
    }
    this.#pending.delete(jobId);
    for (const waiter of pending.waiters) waiter.resolve(result);
  }

  #fail(jobId: string, reason: string | undefined): void {
    const error = new RemoteToolError({
      code: 'job_failed',
      message: `The call's job failed on the worker side: ${reason || 'no reason given'}.`,
    });
    this.#settle(jobId, (waiter) => waiter.reject(error));
  }

  #each(jobId: string, visit: (waiter: Waiter) => void): void {
    const pending = this.#pending.get(jobId);
    if (pending !== undefined) for (const waiter of pending.waiters) visit(waiter);
  }

  #settle(jobId: string, visit: (waiter: Waiter) => void): void {
    const pending = this.#pending.get(jobId);
    if (pending === undefined) return;
    this.#pending.delete(jobId);
    for (const waiter of pending.waiters) visit(waiter);
  }
}
