import { closeSync, fdatasync, fsyncSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { InternalError } from '@mtpx/mpl';

interface Waiter {
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** What the syncs of a log have cost so far. */
export interface LogSyncStats {
  /** `fdatasync` calls completed. */
  syncs: number;
  /** Commits they made durable (each sync serves every commit made while the last one ran). */
  commits: number;
  /** Their total duration, in seconds. */
  seconds: number;
}

/**
 * Group commit for a SQLite write-ahead log. SQLite commits with `synchronous=NORMAL`, so a
 * commit is written to the log (where a killed process cannot lose it) but not yet synced;
 * {@link WalSync.durable} then resolves once an `fdatasync` of the log that *began after the
 * call* has completed. That is the one sync `synchronous=FULL` adds to every commit
 * (SQLite's documentation: in WAL mode, FULL "additionally" syncs the log after each
 * commit), made here on libuv's thread pool and shared by every commit made while the
 * previous sync ran, so the event loop never waits for the disk and the next transaction is
 * written while the last one syncs.
 *
 * A failed sync is final: the kernel may have dropped the unsynced pages, so every waiting
 * and later `durable()` rejects, and the store must be reopened.
 *
 * @internal Exported from `@mtpx/mpl-proxy/internal` for the bench, whose synced baseline
 * server groups its syncs with this same class.
 */
export class WalSync {
  /** The log file (`<database>-wal`). */
  readonly path: string;
  #fd: number | undefined;
  /** Commits waiting for the next sync. */
  #waiting: Waiter[] = [];
  #running = false;
  #failure: InternalError | undefined;
  #idle: Array<() => void> = [];
  readonly #stats: LogSyncStats = { syncs: 0, commits: 0, seconds: 0 };

  constructor(walPath: string) {
    this.path = walPath;
  }

  /** Resolves once everything written to the log before this call is on disk. */
  durable(): Promise<void> {
    if (this.#failure) return Promise.reject(this.#failure);
    return new Promise((resolve, reject) => {
      this.#waiting.push({ resolve, reject });
      if (!this.#running) this.#run();
    });
  }

  /** How many syncs ran, for how many commits, and how long they took. */
  get stats(): LogSyncStats {
    return { ...this.#stats };
  }

  /** Waits for the syncs under way, then closes the log's descriptor. */
  async close(): Promise<void> {
    while (this.#running) await new Promise<void>((resolve) => this.#idle.push(resolve));
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
  }

  #run(): void {
    const batch = this.#waiting;
    this.#waiting = [];
    let fd: number;
    try {
      fd = this.#open();
    } catch (error) {
      this.#fail(error, batch);
      return;
    }
    this.#running = true;
    const started = performance.now();
    fdatasync(fd, (error) => {
      this.#running = false;
      if (error) this.#fail(error, batch);
      else {
        this.#stats.syncs += 1;
        this.#stats.commits += batch.length;
        this.#stats.seconds += (performance.now() - started) / 1000;
        for (const waiter of batch) waiter.resolve();
      }
      if (this.#waiting.length > 0 && !this.#failure) this.#run();
      else {
        const idle = this.#idle;
        this.#idle = [];
        for (const resolve of idle) resolve();
      }
    });
  }

  #open(): number {
    if (this.#fd === undefined) {
      const fd = openSync(this.path, 'r');
      // The log's directory entry must survive a power loss too: sync its folder once.
      const folder = openSync(dirname(this.path), 'r');
      try {
        fsyncSync(folder);
      } finally {
        closeSync(folder);
      }
      this.#fd = fd;
    }
    return this.#fd;
  }

  #fail(cause: unknown, batch: Waiter[]): void {
    this.#failure ??= new InternalError({
      message: `The provenance log ${this.path} could not be synced to disk (${cause instanceof Error ? cause.message : String(cause)}); entries since the last sync may not be durable. Reopen the store (restart the proxy).`,
      cause,
    });
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const waiter of [...batch, ...waiting]) waiter.reject(this.#failure);
  }
}
