import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  type HashAlgorithm,
  InternalError,
  linkEntry,
  type ProvenanceEntry,
  type ProvenanceEntryInput,
  type ProvenanceStore,
} from '@mtpx/mpl';
import { type ProvenanceRow, provenanceRows } from '@mtpx/mpl/internal';
import Database from 'better-sqlite3';
import { type CheckpointStats, WalCheckpointer } from './wal-checkpointer';
import { type LogSyncStats, WalSync } from './wal-sync';

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
   * When an append resolves. `full` (default): once the write-ahead log holding its commit
   * is synced to disk (`fdatasync`), so an acknowledged entry survives a power loss.
   * `normal`: once it is committed to the log, which survives a crashed or killed process
   * (`kill -9`), not a power loss.
   */
  synchronous?: 'full' | 'normal';
}

interface Pending {
  record: ProvenanceEntryInput;
  resolve: (entry: ProvenanceEntry) => void;
  reject: (error: unknown) => void;
}

/** What one commit did: the entries it stored, and the records that could not be linked. */
interface Committed {
  linked: Array<{ pending: Pending; entry: ProvenanceEntry }>;
  unlinked: Array<{ pending: Pending; cause: unknown }>;
}

/** One row of `provenance_entries` as inserted: its values in `provenanceRows.columns` order (flags as 1/0). */
type EntryValues = unknown[];

/** A row as read back: the inserted row without its key, the payload only when asked for. */
type Row = Omit<ProvenanceRow, 'plan_key'>;

const columns = provenanceRows.entryColumnList;

// Positional parameters: binding an array costs less than looking each name up in an object.
const insertEntry = `INSERT INTO provenance_entries (${provenanceRows.columns.join(', ')})
  VALUES (${provenanceRows.columns.map(() => '?').join(', ')})`;

/** How long appends keep retrying while another connection holds the write lock. */
const lockWaitMs = 5_000;

function isLockError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (
    typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'))
  );
}

/**
 * A durable {@link ProvenanceStore} in SQLite (`<dataDir>/provenance.db`, WAL mode).
 * The appends of one event-loop turn are linked and committed together in one transaction,
 * written to the write-ahead log at once; each `append` resolves only once its entry is as
 * durable as `synchronous` promises:
 *
 * - `full` (default): after an `fdatasync` of the log that began after the commit
 *   (group commit: one sync serves every commit made while the previous one
 *   ran, and the event loop never waits for the disk). Survives a power loss.
 * - `normal`: right after the commit, which the log holds: survives `kill -9` (the kernel
 *   has the pages), not a power loss.
 *
 * Several connections (processes) may append to one database, to one plan at once: each
 * batch is linked inside its `BEGIN IMMEDIATE` transaction, with the write lock held, on
 * each plan's head as stored. The heads are kept in memory between batches, and dropped
 * when `PRAGMA data_version` shows that another connection committed since (one pragma
 * read per batch). A commit that another connection's write lock holds up is retried (for
 * up to 5 s) without blocking; a failed one rejects its batch.
 *
 * @example
 * ```ts source="./store.examples.ts#SqliteProvenanceStore"
 * const store = SqliteProvenanceStore.open({ dataDir: '/var/lib/mpl' });
 * const entry = await store.append(record);
 * verifyChain(await store.chain(entry.plan_id, { payloads: true }));
 * ```
 */
export class SqliteProvenanceStore implements ProvenanceStore {
  /** The database file. */
  readonly path: string;
  readonly #database: Database.Database;
  readonly #readOnly: boolean;
  readonly #algorithm: HashAlgorithm;
  /** Absent for `synchronous: 'normal'` and for a read-only store. */
  readonly #walSync: WalSync | undefined;
  /** Links and stores a batch in one `BEGIN IMMEDIATE` transaction. */
  readonly #commit: ((batch: Pending[]) => Committed) | undefined;
  /** Absent for a read-only store. */
  readonly #checkpointer: WalCheckpointer | undefined;
  readonly #head: Database.Statement<[string], Pick<Row, 'seq' | 'sem_hash' | 'entry_hash'>>;
  readonly #planOfInvocation: Database.Statement<[string], { plan_id: string }>;
  readonly #chain: Database.Statement<[string], Row>;
  readonly #chainWithPayloads: Database.Statement<[string], Row>;
  readonly #planIds: Database.Statement<[], { plan_id: string }>;
  /**
   * The last committed entry of each plan touched: no query per append. Valid while no other
   * connection has committed (see {@link #dataVersion}).
   */
  readonly #heads = new Map<string, Pick<ProvenanceEntry, 'seq' | 'sem_hash' | 'entry_hash'>>();
  /** Invocations linked to a plan. */
  readonly #invocations = new Map<string, string>();
  /** `PRAGMA data_version` when the heads were last known to match the table. */
  #dataVersion: number | undefined;
  #queue: Pending[] = [];
  #scheduled = false;
  /** Set while a commit waits for another connection's write lock. */
  #lockedSince: number | undefined;
  #retry: NodeJS.Timeout | undefined;
  #closed = false;

  private constructor(options: SqliteProvenanceStoreOptions) {
    const readOnly = options.readOnly === true;
    this.#readOnly = readOnly;
    if (!readOnly) mkdirSync(options.dataDir, { recursive: true });
    this.path = join(options.dataDir, 'provenance.db');
    this.#algorithm = options.algorithm ?? 'sha256';
    const database = new Database(
      this.path,
      readOnly ? { readonly: true, fileMustExist: true } : undefined,
    );
    this.#database = database;
    if (readOnly) database.pragma('busy_timeout = 5000');
    else {
      this.#createSchema();
      // The event loop never waits for a lock: a busy commit is retried from a timer.
      database.pragma('busy_timeout = 0');
      const insert = database.prepare<EntryValues>(insertEntry);
      const dataVersion = database.prepare<[], number>('PRAGMA data_version').pluck();
      const commit = database.transaction((batch: Pending[]): Committed => {
        // The write lock is held: no one else commits until this transaction ends. If someone
        // did since our last transaction, the cached heads may be stale: read them anew.
        const version = dataVersion.get() as number;
        if (version !== this.#dataVersion) {
          this.#heads.clear();
          this.#invocations.clear();
          this.#dataVersion = version;
        }
        const committed: Committed = { linked: [], unlinked: [] };
        for (const pending of batch) {
          let linked: { entry: ProvenanceEntry; values: EntryValues };
          try {
            linked = this.#link(pending.record);
          } catch (cause) {
            committed.unlinked.push({ pending, cause });
            continue;
          }
          insert.run(linked.values);
          committed.linked.push({ pending, entry: linked.entry });
        }
        return committed;
      });
      this.#commit = (batch) => commit.immediate(batch);
      if (options.synchronous !== 'normal') this.#walSync = new WalSync(`${this.path}-wal`);
      // Checkpoints run on a thread of their own; SQLite's automatic one comes back if it fails.
      database.pragma('wal_autocheckpoint = 0');
      this.#checkpointer = new WalCheckpointer(this.path, () => {
        if (database.open) database.pragma('wal_autocheckpoint = 1000');
      });
    }
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
  }

  /**
   * The table and index, in WAL mode. Commits run with `synchronous = NORMAL` (written to the
   * log, synced at checkpoints); `full` adds its own sync of the log per group of commits.
   */
  #createSchema(): void {
    const database = this.#database;
    database.pragma('busy_timeout = 5000');
    database.pragma('journal_mode = WAL');
    database.pragma('synchronous = NORMAL');
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

  append(record: ProvenanceEntryInput): Promise<ProvenanceEntry> {
    if (this.#closed)
      return Promise.reject(new InternalError({ message: 'The provenance store is closed' }));
    if (this.#readOnly)
      return Promise.reject(
        new InternalError({ message: 'The provenance store was opened read-only' }),
      );
    return new Promise((resolve, reject) => {
      this.#queue.push({ record, resolve, reject });
      if (!this.#scheduled && this.#retry === undefined) {
        this.#scheduled = true;
        setImmediate(() => this.#dispatch());
      }
    });
  }

  /**
   * With `synchronous: 'full'`, how many `fdatasync`s of the write-ahead log have run, for
   * how many commits, and their total time: what each acknowledgement waits for. `undefined`
   * with `'normal'` and for a read-only store.
   */
  get logSyncStats(): LogSyncStats | undefined {
    return this.#walSync?.stats;
  }

  /**
   * How many checkpoints of the write-ahead log ran on the store's checkpointer thread, and
   * the log frames they copied into the database. `undefined` for a read-only store.
   * @internal
   */
  get checkpointStats(): CheckpointStats | undefined {
    return this.#checkpointer?.stats;
  }

  async chain(
    planId: string | null,
    options: { payloads?: boolean } = {},
  ): Promise<ProvenanceEntry[]> {
    const statement = options.payloads ? this.#chainWithPayloads : this.#chain;
    return statement.all(provenanceRows.planKey(planId)).map(provenanceRows.entryOf);
  }

  async planIds(): Promise<string[]> {
    return this.#planIds.all().map((row) => row.plan_id);
  }

  /** Commits what is queued, waits for its sync, then closes the database. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    while (this.#queue.length > 0 || this.#retry !== undefined) {
      if (this.#retry !== undefined) await new Promise((resolve) => setTimeout(resolve, 5));
      else this.#dispatch();
    }
    await this.#walSync?.close();
    await this.#checkpointer?.close();
    this.#database.close();
  }

  /**
   * Links the queued records and commits them in one transaction; each resolves once the
   * commit is durable. A commit another connection's lock holds up is tried again shortly
   * (nothing is linked before the lock is held).
   */
  #dispatch(): void {
    this.#scheduled = false;
    this.#retry = undefined;
    const batch = this.#queue;
    if (batch.length === 0) return;
    this.#queue = [];
    if (this.#heads.size > maxCachedHeads) this.#heads.clear();
    if (this.#invocations.size > maxCachedHeads) this.#invocations.clear();
    let committed: Committed;
    try {
      committed = (this.#commit as (batch: Pending[]) => Committed)(batch);
    } catch (error) {
      // Nothing of the batch is stored: forget the heads it advanced.
      this.#heads.clear();
      this.#invocations.clear();
      const now = Date.now();
      this.#lockedSince ??= now;
      if (isLockError(error) && now - this.#lockedSince < lockWaitMs) {
        this.#queue = [...batch, ...this.#queue];
        const waited = now - this.#lockedSince;
        this.#retry = setTimeout(() => this.#dispatch(), Math.min(50, 1 + waited / 4));
        return;
      }
      this.#lockedSince = undefined;
      const failure = new InternalError({
        message: `Could not commit provenance entries: ${error instanceof Error ? error.message : String(error)}`,
        cause: error,
      });
      for (const pending of batch) pending.reject(failure);
      return;
    }
    this.#lockedSince = undefined;
    for (const { pending, cause } of committed.unlinked)
      pending.reject(new InternalError({ message: 'Could not record a provenance entry', cause }));
    const { linked } = committed;
    if (linked.length === 0) return;
    this.#checkpointer?.commits();
    if (this.#walSync === undefined) {
      for (const { pending, entry } of linked) pending.resolve(entry);
      return;
    }
    // WalSync.close waits for this sync, so close() needs no list of its own.
    void this.#walSync.durable().then(
      () => {
        for (const { pending, entry } of linked) pending.resolve(entry);
      },
      (error: unknown) => {
        for (const { pending } of linked) pending.reject(error);
      },
    );
  }

  #link(record: ProvenanceEntryInput): { entry: ProvenanceEntry; values: EntryValues } {
    const planId =
      record.plan_id !== undefined
        ? record.plan_id
        : record.invocation_id
          ? (this.#planOfInvocation.get(record.invocation_id)?.plan_id ??
            this.#invocations.get(record.invocation_id) ??
            null)
          : null;
    const key = provenanceRows.planKey(planId);
    const previous = this.#heads.get(key) ?? this.#head.get(key);
    const linked =
      record.plan_id === planId
        ? (record as ProvenanceEntryInput & { plan_id: string | null })
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
      values: provenanceRows.valuesOf(entry, { payload: record.payload, flags: 'integer' }),
    };
  }
}

/** Plans (and invocations) whose heads are kept in memory before the cache starts over. */
const maxCachedHeads = 100_000;
