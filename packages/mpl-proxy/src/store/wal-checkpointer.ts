import { once } from 'node:events';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** What the checkpoints of a log have done so far. */
export interface CheckpointStats {
  /** Checkpoints completed on the checkpointer's thread. */
  checkpoints: number;
  /** Log frames they copied into the database. */
  framesCopied: number;
  /** Why the thread stopped, when it failed (SQLite's automatic checkpoint took over). */
  failure?: string;
}

/** Commits between two checkpoint requests (SQLite's own default: every 1,000 log pages). */
const commitsPerCheckpoint = 100;

// The checkpointer thread: its own connection to the database, one PASSIVE checkpoint per
// message (messages are handled one at a time), answered with what it copied. PASSIVE never
// waits for the writer or the readers; `synchronous = NORMAL` makes the checkpoint sync the
// log before copying it and the database after, as SQLite's own automatic checkpoint does.
const checkpointerSource = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const database = new Database(workerData.path, { fileMustExist: true });
database.pragma('busy_timeout = 1000');
database.pragma('synchronous = NORMAL');
parentPort.on('message', (message) => {
  if (message === 'close') {
    database.close();
    parentPort.close();
    return;
  }
  try {
    const [result] = database.pragma('wal_checkpoint(PASSIVE)');
    parentPort.postMessage({ ok: true, copied: result.checkpointed });
  } catch (error) {
    parentPort.postMessage({ ok: false, message: String(error) });
  }
});
`;

/**
 * Checkpoints a SQLite write-ahead log on a thread of its own, so the event loop never
 * stops for a checkpoint's copy and `fsync`s (SQLite runs its automatic checkpoint inside
 * the commit that crosses 1,000 log pages; on a busy disk that stalls every answer behind
 * it). The store turns the automatic checkpoint off and calls {@link commits} after each
 * commit; every 100 commits a checkpoint is asked for, unless one is still running. When
 * the thread fails, {@link onFailure} is called once (the store turns the automatic
 * checkpoint back on) and nothing more is asked of it.
 */
export class WalCheckpointer {
  readonly #worker: Worker;
  readonly #stats: CheckpointStats = { checkpoints: 0, framesCopied: 0 };
  #sinceLast = 0;
  #running = false;
  #failed = false;
  #exited = false;
  #closed: Promise<void> | undefined;
  readonly #onFailure: (error: Error) => void;

  constructor(databasePath: string, onFailure: (error: Error) => void) {
    this.#onFailure = onFailure;
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    this.#worker = new Worker(checkpointerSource, {
      eval: true,
      workerData: { driver, path: databasePath },
    });
    // Its thread never keeps the process alive by itself.
    this.#worker.unref();
    this.#worker.on('message', (answer: { ok: boolean; copied?: number; message?: string }) => {
      this.#running = false;
      if (answer.ok) {
        this.#stats.checkpoints += 1;
        this.#stats.framesCopied += Math.max(0, answer.copied ?? 0);
      } else this.#fail(new Error(`The log checkpoint failed: ${answer.message}`));
    });
    this.#worker.on('error', (error) => this.#fail(error));
    this.#worker.on('exit', (code) => {
      this.#exited = true;
      if (!this.#closed) this.#fail(new Error(`The checkpointer thread exited (code ${code})`));
    });
  }

  /** Counts `count` commits; asks for a checkpoint once enough have been made. */
  commits(count = 1): void {
    if (this.#failed || this.#closed) return;
    this.#sinceLast += count;
    if (this.#sinceLast < commitsPerCheckpoint || this.#running) return;
    this.#sinceLast = 0;
    this.#running = true;
    this.#worker.postMessage('checkpoint');
  }

  /** How many checkpoints ran on the thread, and the frames they copied. */
  get stats(): CheckpointStats {
    return { ...this.#stats };
  }

  /** Ends the thread once its checkpoint under way (if any) is done. */
  close(): Promise<void> {
    this.#closed ??= (async () => {
      if (this.#exited || this.#failed) return;
      const exited = once(this.#worker, 'exit');
      // Closing is awaited: the thread must keep the process alive until it has exited.
      this.#worker.ref();
      this.#worker.postMessage('close');
      await exited.catch(() => {});
    })();
    return this.#closed;
  }

  #fail(error: Error): void {
    if (this.#failed) return;
    this.#failed = true;
    this.#running = false;
    this.#stats.failure = error.message;
    void this.#worker.terminate();
    this.#onFailure(error);
  }
}
