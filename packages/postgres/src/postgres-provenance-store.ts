import {
  type HashAlgorithm,
  InternalError,
  linkEntry,
  type ProvenanceEntry,
  type ProvenanceEntryInput,
  type ProvenanceStore,
} from '@mtpx/mpl';
import { type ProvenanceRow, provenanceRows } from '@mtpx/mpl/internal';
import {
  type PostgresConnectionOptions,
  PostgresDatabase,
  sqlStateOf,
} from './postgres-connection';
import type { PostgresQueryable } from './postgres-pool';

/** Options of {@link PostgresProvenanceStore}. */
export interface PostgresProvenanceStoreOptions extends PostgresConnectionOptions {
  /** Algorithm of `entry_hash` (default `sha256`). */
  algorithm?: HashAlgorithm;
  /** Most entries of one plan committed in one transaction. Default 200. */
  maxBatch?: number;
}

interface Pending {
  record: ProvenanceEntryInput & { plan_id: string | null };
  resolve: (entry: ProvenanceEntry) => void;
  reject: (error: unknown) => void;
}

const columns = provenanceRows.entryColumnList;
/** Attempts of one batch when a unique violation says another writer got there first. */
const maxAttempts = 5;

/**
 * A {@link ProvenanceStore} in PostgreSQL (table `mtpx_provenance_entries`) that any
 * number of MPL proxy processes share. Appends to one plan take turns on a transaction
 * advisory lock for that plan: inside it the chain's head is read, the new entries are
 * linked to it and inserted, and the lock goes with the COMMIT — so every entry's parent
 * is the entry before it, whichever process wrote either, and `(plan, seq)` is a primary
 * key besides (a violation is retried on the new head). Appends to one plan that arrive
 * while a commit is in flight go together in the next transaction (group commit). Each
 * `append` resolves only after its COMMIT returned: an acknowledged entry is durable.
 *
 * @example
 * ```ts source="./postgres.examples.ts#PostgresProvenanceStore"
 * const store = new PostgresProvenanceStore({ connectionString: 'postgres://mpl@db/mpl' });
 * const entry = await store.append(record); // durable once it resolves
 * // a proxy on it: mpl serve --provenance 'postgres://mpl@db/mpl?schema=mpl'
 * ```
 */
export class PostgresProvenanceStore implements ProvenanceStore {
  /** Appends are durable once acknowledged (the proxy's `durable_provenance` capability). */
  readonly durable = true;
  readonly #database: PostgresDatabase;
  readonly #table: string;
  readonly #algorithm: HashAlgorithm;
  readonly #maxBatch: number;
  /** Appends waiting for their plan's next transaction, by plan key. */
  readonly #queues = new Map<string, Pending[]>();
  /** The commit loop of each plan that has one running. */
  readonly #flushing = new Map<string, Promise<void>>();
  #closed = false;

  constructor(options: PostgresProvenanceStoreOptions) {
    this.#database = new PostgresDatabase(options, 'PostgresProvenanceStore');
    this.#table = this.#database.table('mtpx_provenance_entries');
    this.#algorithm = options.algorithm ?? 'sha256';
    this.#maxBatch = options.maxBatch ?? 200;
  }

  async append(record: ProvenanceEntryInput): Promise<ProvenanceEntry> {
    if (this.#closed) throw new InternalError({ message: 'The provenance store is closed' });
    let planId: string | null;
    try {
      planId = record.plan_id !== undefined ? record.plan_id : await this.#planOf(record);
    } catch (cause) {
      throw new InternalError({ message: 'Could not find the plan of a provenance entry', cause });
    }
    const key = provenanceRows.planKey(planId);
    return new Promise<ProvenanceEntry>((resolve, reject) => {
      const queue = this.#queues.get(key) ?? [];
      queue.push({ record: { ...record, plan_id: planId }, resolve, reject });
      this.#queues.set(key, queue);
      if (!this.#flushing.has(key)) {
        const loop = this.#flushLoop(key).finally(() => this.#flushing.delete(key));
        this.#flushing.set(key, loop);
      }
    });
  }

  async chain(
    planId: string | null,
    options: { payloads?: boolean } = {},
  ): Promise<ProvenanceEntry[]> {
    const selected = options.payloads ? `${columns}, payload` : columns;
    const result = await this.#read(() =>
      this.#database.query(
        `SELECT ${selected} FROM ${this.#table} WHERE plan_key = $1 ORDER BY seq`,
        [provenanceRows.planKey(planId)],
      ),
    );
    return (result.rows as Array<Omit<ProvenanceRow, 'plan_key'>>).map(provenanceRows.entryOf);
  }

  async planIds(): Promise<string[]> {
    const result = await this.#read(() =>
      this.#database.query(
        `SELECT DISTINCT plan_id FROM ${this.#table} WHERE plan_id IS NOT NULL ORDER BY plan_id`,
      ),
    );
    return (result.rows as Array<{ plan_id: string }>).map((row) => row.plan_id);
  }

  /** Commits what is queued, then ends the pool (when the store made it). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    while (this.#flushing.size > 0) await Promise.all(this.#flushing.values());
    await this.#database.close();
  }

  async #planOf(record: ProvenanceEntryInput): Promise<string | null> {
    if (!record.invocation_id) return null;
    const result = await this.#database.query(
      `SELECT plan_id FROM ${this.#table} WHERE invocation_id = $1 AND plan_id IS NOT NULL ORDER BY plan_key, seq LIMIT 1`,
      [record.invocation_id],
    );
    return (result.rows[0] as { plan_id: string } | undefined)?.plan_id ?? null;
  }

  async #flushLoop(key: string): Promise<void> {
    for (;;) {
      const queue = this.#queues.get(key) ?? [];
      if (queue.length === 0) {
        this.#queues.delete(key);
        return;
      }
      const batch = queue.splice(0, this.#maxBatch);
      try {
        const entries = await this.#commit(key, batch);
        for (const [index, pending] of batch.entries()) {
          pending.resolve(entries[index] as ProvenanceEntry);
        }
      } catch (cause) {
        const error = new InternalError({ message: 'Could not commit provenance entries', cause });
        for (const pending of batch) pending.reject(error);
      }
    }
  }

  /** Links and inserts one batch of a plan in one transaction; retried on a unique violation. */
  async #commit(key: string, batch: readonly Pending[]): Promise<ProvenanceEntry[]> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.#database.transaction((client) => this.#insert(client, key, batch));
      } catch (error) {
        if (sqlStateOf(error) !== '23505' || attempt >= maxAttempts) throw error;
      }
    }
  }

  async #insert(
    client: PostgresQueryable,
    key: string,
    batch: readonly Pending[],
  ): Promise<ProvenanceEntry[]> {
    // One writer per plan across every process, until COMMIT.
    await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
      `mtpx.provenance.${this.#database.schema}.${key}`,
    ]);
    const head = await client.query(
      `SELECT seq, sem_hash, entry_hash FROM ${this.#table} WHERE plan_key = $1 ORDER BY seq DESC LIMIT 1`,
      [key],
    );
    let previous = head.rows[0] as
      | Pick<ProvenanceEntry, 'seq' | 'sem_hash' | 'entry_hash'>
      | undefined;
    const entries: ProvenanceEntry[] = [];
    const values: unknown[] = [];
    const rows: string[] = [];
    for (const pending of batch) {
      const entry = linkEntry(previous, pending.record, this.#algorithm);
      entries.push(entry);
      previous = entry;
      const row = provenanceRows.valuesOf(entry, { payload: pending.record.payload });
      rows.push(`(${row.map((_value, index) => `$${values.length + index + 1}`).join(', ')})`);
      values.push(...row);
    }
    await client.query(
      `INSERT INTO ${this.#table} (${provenanceRows.columns.join(', ')}) VALUES ${rows.join(', ')}`,
      values,
    );
    return entries;
  }

  async #read<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (cause) {
      throw new InternalError({ message: 'Could not read provenance entries', cause });
    }
  }
}
