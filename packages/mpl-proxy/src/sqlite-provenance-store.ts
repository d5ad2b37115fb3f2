import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  type HashAlgorithm,
  InternalError,
  linkEntry,
  type ProvenanceEntry,
  type ProvenanceRecord,
  type ProvenanceStore,
} from '@mtpx/mpl';
import { type JsonValue, safeParseJson } from '@mtpx/protocol';
import Database from 'better-sqlite3';

/** Options of {@link SqliteProvenanceStore}. */
export interface SqliteProvenanceStoreOptions {
  /** The folder holding `provenance.db` (created when missing, unless `readOnly`). */
  dataDir: string;
  /**
   * Open an existing database for reading only: nothing is created (no folder, no file, no
   * table), and opening a folder without `provenance.db` throws `SqliteError`
   * (`SQLITE_CANTOPEN`). For readers such as `mpl provenance`; `append` then rejects.
   */
  readOnly?: boolean;
  /** Algorithm of `entry_hash` (default `sha256`). */
  algorithm?: HashAlgorithm;
  /**
   * `full` (default) syncs the write-ahead log on every commit, so an acknowledged entry
   * survives a power loss; `normal` survives a crashed or killed process only.
   */
  synchronous?: 'full' | 'normal';
}

interface Pending {
  record: ProvenanceRecord;
  resolve: (entry: ProvenanceEntry) => void;
  reject: (error: unknown) => void;
}

interface Row {
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
  payload?: string;
}

const columns =
  'plan_id, seq, stype, method, invocation_id, sem_hash, parent_hash, entry_hash, timestamp, qom_profile, qom_passed';

/**
 * A durable {@link ProvenanceStore} in SQLite (`<dataDir>/provenance.db`, WAL mode).
 * Appends that arrive in the same turn of the event loop are committed together in one
 * transaction (group commit); each `append` resolves only after its transaction has
 * committed, so a caller that answers after `await append(…)` never acknowledges an
 * entry a crash could lose. Each entry is linked inside the transaction, so chains stay
 * consistent whatever the concurrency.
 *
 * @example
 * ```ts
 * const store = SqliteProvenanceStore.open({ dataDir: '/var/lib/mpl' });
 * const entry = await store.append(record);
 * verifyChain(await store.chain(entry.plan_id, { payloads: true }));
 * ```
 */
export class SqliteProvenanceStore implements ProvenanceStore {
  /** The database file. */
  readonly path: string;
  readonly #database: Database.Database;
  readonly #algorithm: HashAlgorithm;
  readonly #head: Database.Statement<[string], Pick<Row, 'seq' | 'sem_hash' | 'entry_hash'>>;
  readonly #planOfInvocation: Database.Statement<[string], { plan_id: string }>;
  readonly #insert: Database.Statement;
  readonly #chain: Database.Statement<[string], Row>;
  readonly #chainWithPayloads: Database.Statement<[string], Row>;
  readonly #planIds: Database.Statement<[], { plan_id: string }>;
  readonly #commit: (batch: Pending[]) => Array<ProvenanceEntry | { error: unknown }>;
  #queue: Pending[] = [];
  #scheduled = false;
  #closed = false;

  private constructor(options: SqliteProvenanceStoreOptions) {
    const readOnly = options.readOnly === true;
    if (!readOnly) mkdirSync(options.dataDir, { recursive: true });
    this.path = join(options.dataDir, 'provenance.db');
    this.#algorithm = options.algorithm ?? 'sha256';
    const database = new Database(
      this.path,
      readOnly ? { readonly: true, fileMustExist: true } : undefined,
    );
    this.#database = database;
    database.pragma('busy_timeout = 5000');
    if (!readOnly) this.#createSchema(options);
    this.#head = database.prepare(
      'SELECT seq, sem_hash, entry_hash FROM provenance_entries WHERE plan_key = ? ORDER BY seq DESC LIMIT 1',
    );
    this.#planOfInvocation = database.prepare(
      'SELECT plan_id FROM provenance_entries WHERE invocation_id = ? AND plan_id IS NOT NULL ORDER BY id LIMIT 1',
    );
    this.#insert = database.prepare(
      `INSERT INTO provenance_entries (plan_key, ${columns}, payload)
       VALUES (@plan_key, @plan_id, @seq, @stype, @method, @invocation_id, @sem_hash, @parent_hash, @entry_hash, @timestamp, @qom_profile, @qom_passed, @payload)`,
    );
    this.#chain = database.prepare(
      `SELECT ${columns} FROM provenance_entries WHERE plan_key = ? ORDER BY seq`,
    );
    this.#chainWithPayloads = database.prepare(
      `SELECT ${columns}, payload FROM provenance_entries WHERE plan_key = ? ORDER BY seq`,
    );
    this.#planIds = database.prepare(
      'SELECT DISTINCT plan_id FROM provenance_entries WHERE plan_id IS NOT NULL ORDER BY plan_id',
    );
    const appendOne = database.transaction((record: ProvenanceRecord) => this.#appendNow(record));
    this.#commit = database.transaction((batch: Pending[]) =>
      batch.map((pending) => {
        try {
          return appendOne(pending.record);
        } catch (error) {
          return { error };
        }
      }),
    );
  }

  /** The table and index, and the journal settings a writer needs. */
  #createSchema(options: SqliteProvenanceStoreOptions): void {
    const database = this.#database;
    database.pragma('journal_mode = WAL');
    database.pragma(`synchronous = ${options.synchronous === 'normal' ? 'NORMAL' : 'FULL'}`);
    database.exec(`
      CREATE TABLE IF NOT EXISTS provenance_entries (
        id INTEGER PRIMARY KEY,
        plan_key TEXT NOT NULL,
        seq INTEGER NOT NULL,
        plan_id TEXT,
        stype TEXT NOT NULL,
        method TEXT,
        invocation_id TEXT,
        sem_hash TEXT NOT NULL,
        parent_hash TEXT,
        entry_hash TEXT NOT NULL,
        timestamp TEXT NOT NULL,
        qom_profile TEXT NOT NULL,
        qom_passed INTEGER NOT NULL,
        payload TEXT NOT NULL,
        UNIQUE (plan_key, seq)
      );
      CREATE INDEX IF NOT EXISTS provenance_invocations
        ON provenance_entries (invocation_id) WHERE invocation_id IS NOT NULL AND plan_id IS NOT NULL;
    `);
  }

  /** Opens (or creates) the store under `dataDir`. */
  static open(options: SqliteProvenanceStoreOptions): SqliteProvenanceStore {
    return new SqliteProvenanceStore(options);
  }

  append(record: ProvenanceRecord): Promise<ProvenanceEntry> {
    if (this.#closed)
      return Promise.reject(new InternalError({ message: 'The provenance store is closed' }));
    return new Promise((resolve, reject) => {
      this.#queue.push({ record, resolve, reject });
      if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => this.#flush());
      }
    });
  }

  async chain(
    planId: string | null,
    options: { payloads?: boolean } = {},
  ): Promise<ProvenanceEntry[]> {
    const statement = options.payloads ? this.#chainWithPayloads : this.#chain;
    return statement.all(planId ?? '').map(toEntry);
  }

  async planIds(): Promise<string[]> {
    return this.#planIds.all().map((row) => row.plan_id);
  }

  /** Commits what is queued, then closes the database. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#flush();
    this.#closed = true;
    this.#database.close();
  }

  #appendNow(record: ProvenanceRecord): ProvenanceEntry {
    const planId =
      record.plan_id !== undefined
        ? record.plan_id
        : record.invocation_id
          ? (this.#planOfInvocation.get(record.invocation_id)?.plan_id ?? null)
          : null;
    const previous = this.#head.get(planId ?? '');
    const entry = linkEntry(previous, { ...record, plan_id: planId }, this.#algorithm);
    this.#insert.run({
      plan_key: planId ?? '',
      plan_id: entry.plan_id,
      seq: entry.seq,
      stype: entry.stype,
      method: entry.method,
      invocation_id: entry.invocation_id,
      sem_hash: entry.sem_hash,
      parent_hash: entry.parent_hash,
      entry_hash: entry.entry_hash,
      timestamp: entry.timestamp,
      qom_profile: entry.qom_profile,
      qom_passed: entry.qom_passed ? 1 : 0,
      payload: JSON.stringify(record.payload),
    });
    return entry;
  }

  #flush(): void {
    this.#scheduled = false;
    const batch = this.#queue;
    if (batch.length === 0) return;
    this.#queue = [];
    let outcomes: Array<ProvenanceEntry | { error: unknown }>;
    try {
      outcomes = this.#commit(batch);
    } catch (cause) {
      const error = new InternalError({ message: 'Could not commit provenance entries', cause });
      for (const pending of batch) pending.reject(error);
      return;
    }
    outcomes.forEach((outcome, index) => {
      const pending = batch[index] as Pending;
      if ('error' in outcome)
        pending.reject(
          new InternalError({
            message: 'Could not record a provenance entry',
            cause: outcome.error,
          }),
        );
      else pending.resolve(outcome);
    });
  }
}

function toEntry(row: Row): ProvenanceEntry {
  const entry: ProvenanceEntry = {
    plan_id: row.plan_id,
    seq: row.seq,
    stype: row.stype,
    method: row.method,
    invocation_id: row.invocation_id,
    sem_hash: row.sem_hash,
    parent_hash: row.parent_hash,
    entry_hash: row.entry_hash,
    timestamp: row.timestamp,
    qom_profile: row.qom_profile,
    qom_passed: row.qom_passed === 1,
  };
  if (row.payload !== undefined) {
    const parsed = safeParseJson(row.payload);
    // A payload edited into invalid JSON is kept as text, so verifyChain reports it.
    entry.payload = parsed.ok ? parsed.value : (row.payload as JsonValue);
  }
  return entry;
}
