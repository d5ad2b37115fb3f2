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
import { type EntryRow, SqliteWriter } from './sqlite-writer';

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

/** A row as read back: the writer's row without its key, the payload only when asked for. */
type Row = Omit<EntryRow, 'plan_key' | 'payload'> & { payload?: string };

const columns =
  'plan_id, seq, stype, method, invocation_id, sem_hash, parent_hash, entry_hash, timestamp, qom_profile, qom_passed, validated';

/**
 * A durable {@link ProvenanceStore} in SQLite (`<dataDir>/provenance.db`, WAL mode).
 * Appends are linked on the calling thread (each plan's head is kept in memory) and
 * committed by a writer thread (group commit): the appends of one event-loop turn go to the
 * writer as one batch at once, and all the batches that arrive while it syncs share its
 * next transaction. Each `append` resolves only after its transaction has committed, so a
 * caller that answers after `await append(…)` never acknowledges an entry a crash could
 * lose. Batches commit in order, and a failed one takes the batches linked on it down
 * with it (none is committed), so chains stay consistent whatever the concurrency.
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
  /** Absent for a read-only store. */
  readonly #writer: SqliteWriter | undefined;
  readonly #algorithm: HashAlgorithm;
  readonly #head: Database.Statement<[string], Pick<Row, 'seq' | 'sem_hash' | 'entry_hash'>>;
  readonly #planOfInvocation: Database.Statement<[string], { plan_id: string }>;
  readonly #chain: Database.Statement<[string], Row>;
  readonly #chainWithPayloads: Database.Statement<[string], Row>;
  readonly #planIds: Database.Statement<[], { plan_id: string }>;
  /** The last committed (or in-flight) entry of each plan touched: no query per append. */
  readonly #heads = new Map<string, Pick<ProvenanceEntry, 'seq' | 'sem_hash' | 'entry_hash'>>();
  /** Invocations linked to a plan, including entries still in flight. */
  readonly #invocations = new Map<string, string>();
  #queue: Pending[] = [];
  #scheduled = false;
  /** Batches sent to the writer and not yet settled. */
  readonly #inFlight = new Set<Promise<void>>();
  /** The chain state batches are linked on; a failed commit starts the next one. */
  #epoch = 0;
  #closed = false;

  private constructor(options: SqliteProvenanceStoreOptions) {
    const readOnly = options.readOnly === true;
    if (!readOnly) mkdirSync(options.dataDir, { recursive: true });
    this.path = join(options.dataDir, 'provenance.db');
    this.#algorithm = options.algorithm ?? 'sha256';
    const synchronous = options.synchronous === 'normal' ? 'NORMAL' : 'FULL';
    const database = new Database(
      this.path,
      readOnly ? { readonly: true, fileMustExist: true } : undefined,
    );
    this.#database = database;
    database.pragma('busy_timeout = 5000');
    if (!readOnly) this.#createSchema(synchronous);
    this.#head = database.prepare(
      'SELECT seq, sem_hash, entry_hash FROM provenance_entries WHERE plan_key = ? ORDER BY seq DESC LIMIT 1',
    );
    this.#planOfInvocation = database.prepare(
      'SELECT plan_id FROM provenance_entries WHERE invocation_id = ? AND plan_id IS NOT NULL ORDER BY id LIMIT 1',
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
    this.#writer = readOnly ? undefined : new SqliteWriter(this.path, synchronous);
  }

  /** The table and index, and the journal settings a writer needs. */
  #createSchema(synchronous: 'NORMAL' | 'FULL'): void {
    const database = this.#database;
    database.pragma('journal_mode = WAL');
    database.pragma(`synchronous = ${synchronous}`);
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
        validated INTEGER,
        UNIQUE (plan_key, seq)
      );
      CREATE INDEX IF NOT EXISTS provenance_invocations
        ON provenance_entries (invocation_id) WHERE invocation_id IS NOT NULL AND plan_id IS NOT NULL;
    `);
    // Databases written before `validated` existed gain the column (NULL: validated).
    const known = database.pragma('table_info(provenance_entries)') as Array<{ name: string }>;
    if (!known.some((column) => column.name === 'validated'))
      database.exec('ALTER TABLE provenance_entries ADD COLUMN validated INTEGER');
  }

  /** Opens (or creates) the store under `dataDir`. */
  static open(options: SqliteProvenanceStoreOptions): SqliteProvenanceStore {
    return new SqliteProvenanceStore(options);
  }

  append(record: ProvenanceRecord): Promise<ProvenanceEntry> {
    if (this.#closed)
      return Promise.reject(new InternalError({ message: 'The provenance store is closed' }));
    if (this.#writer === undefined)
      return Promise.reject(
        new InternalError({ message: 'The provenance store was opened read-only' }),
      );
    return new Promise((resolve, reject) => {
      this.#queue.push({ record, resolve, reject });
      if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => this.#dispatch());
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
    this.#closed = true;
    this.#dispatch();
    while (this.#inFlight.size > 0) await Promise.all(this.#inFlight);
    await this.#writer?.close();
    this.#database.close();
  }

  /**
   * Links the queued records and hands them to the writer as one batch, at once: the writer
   * folds the batches that arrive while it syncs into its next transaction.
   */
  #dispatch(): void {
    this.#scheduled = false;
    const batch = this.#queue;
    if (batch.length === 0) return;
    this.#queue = [];
    if (this.#heads.size > maxCachedHeads) this.#heads.clear();
    if (this.#invocations.size > maxCachedHeads) this.#invocations.clear();
    const rows: EntryRow[] = [];
    const linked: Array<{ pending: Pending; entry: ProvenanceEntry }> = [];
    for (const pending of batch) {
      try {
        const { entry, row } = this.#link(pending.record);
        rows.push(row);
        linked.push({ pending, entry });
      } catch (cause) {
        pending.reject(
          new InternalError({ message: 'Could not record a provenance entry', cause }),
        );
      }
    }
    if (rows.length === 0) return;
    const epoch = this.#epoch;
    const settled = (this.#writer as SqliteWriter).commit(rows, epoch).then((outcome) => {
      this.#inFlight.delete(settled);
      if (outcome.ok) for (const { pending, entry } of linked) pending.resolve(entry);
      else {
        // Nothing of the batch is stored, nor of the batches linked on it: forget the heads
        // they advanced, and link what comes next on what is committed.
        if (epoch === this.#epoch) {
          this.#epoch += 1;
          this.#heads.clear();
          this.#invocations.clear();
        }
        const error = new InternalError({
          message: `Could not commit provenance entries: ${outcome.message}`,
        });
        for (const { pending } of linked) pending.reject(error);
      }
    });
    this.#inFlight.add(settled);
  }

  #link(record: ProvenanceRecord): { entry: ProvenanceEntry; row: EntryRow } {
    const planId =
      record.plan_id !== undefined
        ? record.plan_id
        : record.invocation_id
          ? (this.#planOfInvocation.get(record.invocation_id)?.plan_id ??
            this.#invocations.get(record.invocation_id) ??
            null)
          : null;
    const key = planId ?? '';
    const previous = this.#heads.get(key) ?? this.#head.get(key);
    const linked =
      record.plan_id === planId
        ? (record as ProvenanceRecord & { plan_id: string | null })
        : { ...record, plan_id: planId };
    const entry = linkEntry(previous, linked, this.#algorithm);
    this.#heads.set(key, {
      seq: entry.seq,
      sem_hash: entry.sem_hash,
      entry_hash: entry.entry_hash,
    });
    if (planId !== null && record.invocation_id && !this.#invocations.has(record.invocation_id))
      this.#invocations.set(record.invocation_id, planId);
    return {
      entry,
      row: {
        plan_key: key,
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
        validated: entry.validated === false ? 0 : null,
        payload: JSON.stringify(record.payload),
      },
    };
  }
}

/** Plans (and invocations) whose heads are kept in memory before the cache starts over. */
const maxCachedHeads = 100_000;

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
  if (row.validated === 0) entry.validated = false;
  if (row.payload !== undefined) {
    const parsed = safeParseJson(row.payload);
    // A payload edited into invalid JSON is kept as text, so verifyChain reports it.
    entry.payload = parsed.ok ? parsed.value : (row.payload as JsonValue);
  }
  return entry;
}
