import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** One row of `provenance_entries`, as the writer inserts it. */
export interface EntryRow {
  plan_key: string;
  plan_id: string | null;
  seq: number;
  stype: string;
  method: string | null;
  invocation_id: string | null;
  sem_hash: string;
  parent_hash: string | null;
  entry_hash: string;
  timestamp: string;
  qom_profile: string;
  qom_passed: number;
  validated: number | null;
  payload: string;
}

/** The INSERT the writer runs for each row. */
export const INSERT_ENTRY = `INSERT INTO provenance_entries (plan_key, plan_id, seq, stype, method, invocation_id, sem_hash, parent_hash, entry_hash, timestamp, qom_profile, qom_passed, validated, payload)
  VALUES (@plan_key, @plan_id, @seq, @stype, @method, @invocation_id, @sem_hash, @parent_hash, @entry_hash, @timestamp, @qom_profile, @qom_passed, @validated, @payload)`;

// The writer thread: its own connection, one transaction (and so one WAL sync) for all the
// batches that arrived while the last one synced (group commit across batches). Batches of
// one epoch are linked on top of each other: once one fails, the later ones of its epoch
// are refused, never committed. Plain CommonJS evaluated in the worker, so it runs the same
// from src/ and from dist/.
const writerSource = `
const { parentPort, workerData, receiveMessageOnPort } = require('node:worker_threads');
const Database = require(workerData.modulePath);
const database = new Database(workerData.path);
database.pragma('journal_mode = WAL');
database.pragma('synchronous = ' + workerData.synchronous);
database.pragma('busy_timeout = 5000');
const insert = database.prepare(workerData.insert);
const commit = database.transaction((batches) => {
  for (const batch of batches) for (const row of batch.rows) insert.run(row);
});
let failedEpoch = -1;
let closing = false;
function settle(batches, error) {
  for (const batch of batches)
    parentPort.postMessage(error === undefined
      ? { type: 'committed', id: batch.id }
      : { type: 'failed', id: batch.id, message: error });
}
function run(group) {
  if (group.length === 0) return;
  if (group[0].epoch <= failedEpoch) return settle(group, 'an earlier batch of provenance entries failed to commit');
  try {
    commit(group);
    settle(group);
  } catch (error) {
    failedEpoch = group[0].epoch;
    settle(group, String((error && error.message) || error));
  }
}
function handle(first) {
  // Everything queued behind the first message goes into the same transaction, one epoch at a time.
  const messages = [first];
  for (let next = receiveMessageOnPort(parentPort); next; next = receiveMessageOnPort(parentPort))
    messages.push(next.message);
  let group = [];
  for (const message of messages) {
    if (message.type === 'close') { closing = true; continue; }
    if (group.length > 0 && group[0].epoch !== message.epoch) { run(group); group = []; }
    group.push(message);
  }
  run(group);
  if (closing) {
    database.close();
    parentPort.postMessage({ type: 'closed' });
  }
}
parentPort.on('message', handle);
`;

type Outcome = { ok: true } | { ok: false; message: string };

/**
 * The thread that commits provenance rows: batches commit in the order sent, those that
 * queued up during a sync together in one transaction; `commit` resolves once its batch is
 * durable (the WAL synced as configured). The main thread never waits for a commit to send
 * the next batch.
 */
export class SqliteWriter {
  readonly #worker: Worker;
  readonly #pending = new Map<number, (outcome: Outcome) => void>();
  #nextId = 1;
  #broken: string | undefined;
  #closed: Promise<void> | undefined;

  constructor(path: string, synchronous: 'FULL' | 'NORMAL') {
    const modulePath = createRequire(import.meta.url).resolve('better-sqlite3');
    this.#worker = new Worker(writerSource, {
      eval: true,
      workerData: { path, synchronous, modulePath, insert: INSERT_ENTRY },
    });
    this.#worker.unref();
    this.#worker.on('message', (message: { type: string; id?: number; message?: string }) => {
      if (message.id === undefined) return;
      const settle = this.#pending.get(message.id);
      this.#pending.delete(message.id);
      if (this.#pending.size === 0) this.#worker.unref();
      settle?.(
        message.type === 'committed'
          ? { ok: true }
          : { ok: false, message: message.message ?? 'commit failed' },
      );
    });
    const fail = (reason: string) => {
      this.#broken = reason;
      for (const settle of this.#pending.values()) settle({ ok: false, message: reason });
      this.#pending.clear();
    };
    this.#worker.on('error', (error) => fail(`the provenance writer failed: ${error.message}`));
    this.#worker.on('exit', (code) => {
      if (!this.#closed) fail(`the provenance writer stopped (exit ${code})`);
    });
  }

  /**
   * Commits `rows` (in a transaction with whatever else is queued); resolves once they are
   * durable. `epoch` names the chain state the rows were linked on: after a batch fails,
   * the batches of its epoch sent after it fail too, and the caller starts a new epoch.
   */
  commit(rows: EntryRow[], epoch: number): Promise<Outcome> {
    if (this.#broken) return Promise.resolve({ ok: false, message: this.#broken });
    const id = this.#nextId++;
    return new Promise((resolve) => {
      this.#pending.set(id, resolve);
      this.#worker.ref();
      this.#worker.postMessage({ id, epoch, rows });
    });
  }

  /** Closes the writer's connection and ends the thread (after the batches sent so far). */
  close(): Promise<void> {
    this.#closed ??= new Promise<void>((resolve) => {
      if (this.#broken) {
        void this.#worker.terminate().then(() => resolve());
        return;
      }
      this.#worker.ref();
      this.#worker.on('message', (message: { type: string }) => {
        if (message.type === 'closed') void this.#worker.terminate().then(() => resolve());
      });
      this.#worker.postMessage({ type: 'close' });
    });
    return this.#closed;
  }
}
