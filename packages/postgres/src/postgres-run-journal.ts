import {
  AgentError,
  checkJournalVersion,
  type JournaledCall,
  type JournaledRun,
  type JournalWriteOptions,
  type RunJournal,
  type RunLease,
} from '@mtpx/agent';
import { parseJournaledCall, parseJournaledRun } from '@mtpx/agent/internal';
import { safeParseJson } from '@mtpx/protocol';
import { type PostgresConnectionOptions, PostgresDatabase } from './postgres-connection';
import { type PostgresRetryOptions, withRetries } from './postgres-retry';
import { PostgresRunLeases } from './postgres-run-lease';

/** Options of {@link PostgresRunJournal}. */
export interface PostgresRunJournalOptions extends PostgresConnectionOptions {
  /**
   * How reads and writes are retried after a transient failure (a dropped or refused
   * connection, `57P01` admin shutdown, `40001` serialization failure, `40P01` deadlock)
   * before the operation fails with `run_journal_failed`. Default: 8 tries, waits from 50 ms
   * doubling to at most 2 s (about 5 s in all).
   */
  retry?: PostgresRetryOptions;
}

interface RunRow {
  version: number;
  state: string;
}

interface FencedRow {
  leased: number;
  written: number;
}

interface CallRow {
  call_id: string;
  arguments_hash: string;
  result: string;
}

/**
 * A run journal in PostgreSQL (tables `mtpx_runs` and `mtpx_run_calls`): give it to
 * `createAgent({ journal })` in every process that may run or resume a run. Each call's
 * result is one committed row, keyed by (run id, call id, arguments hash), written as the
 * call finishes; the run's state is one row saved after each model turn, compare-and-swap
 * on its version. A run has one owner at a time: its lease (table `mtpx_run_leases`)
 * expires by the database's clock, and every write of the owner is fenced by the lease's
 * token, so a process that lost the run cannot write to it. Transient failures (dropped
 * connections, serialization failures) are retried with backoff (`retry`).
 *
 * @example
 * ```ts source="./postgres.examples.ts#PostgresRunJournal"
 * const journal = new PostgresRunJournal({ connectionString: 'postgres://app@db/app' });
 * const sessionStore = new PostgresSessionStore({ connectionString: 'postgres://app@db/app' });
 * const agent = createAgent({ provider, tools, journal, sessionStore });
 * // …the process running run "run_42" died; in another one:
 * const output = await agent.resume('run_42');
 * ```
 */
export class PostgresRunJournal implements RunJournal {
  readonly #database: PostgresDatabase;
  readonly #runs: string;
  readonly #calls: string;
  readonly #leases: PostgresRunLeases;
  readonly #retry: PostgresRetryOptions;

  constructor(options: PostgresRunJournalOptions) {
    this.#database = new PostgresDatabase(options, 'PostgresRunJournal');
    this.#runs = this.#database.table('mtpx_runs');
    this.#calls = this.#database.table('mtpx_run_calls');
    this.#leases = new PostgresRunLeases(this.#database.table('mtpx_run_leases'));
    this.#retry = options.retry ?? {};
  }

  async get(runId: string): Promise<JournaledRun | undefined> {
    const result = await this.#query(`read run "${runId}"`, () =>
      this.#database.query(`SELECT version, state FROM ${this.#runs} WHERE run_id = $1`, [runId]),
    );
    const row = result.rows[0] as RunRow | undefined;
    if (row === undefined) return undefined;
    const where = `The journaled run "${runId}"`;
    const run = parseJournaledRun(parseText(row.state, where), where);
    return { ...run, version: row.version };
  }

  async save(run: JournaledRun, options?: JournalWriteOptions): Promise<void> {
    const expected = run.version ?? 0;
    const stored = { ...run, version: expected + 1 };
    const state = JSON.stringify(stored);
    const values: unknown[] = [run.run_id, run.status, expected + 1, state];
    const token = options?.leaseToken;
    const write =
      expected === 0
        ? `INSERT INTO ${this.#runs} (run_id, status, version, state)
           SELECT $1, $2, $3, $4 ${token === undefined ? '' : 'FROM lease'}
           ON CONFLICT (run_id) DO NOTHING RETURNING 1`
        : `UPDATE ${this.#runs} SET status = $2, version = $3, state = $4, updated_at = now()
           WHERE run_id = $1 AND version = $3 - 1
           ${token === undefined ? '' : 'AND EXISTS (SELECT 1 FROM lease)'} RETURNING 1`;
    let retried = false;
    const written = await this.#query(`save run "${run.run_id}"`, async (attempt) => {
      retried = attempt > 1;
      if (token === undefined) {
        return ((await this.#database.query(write, values)).rowCount ?? 0) > 0;
      }
      const fenced = await this.#fenced(write, [...values, token], run.run_id, token);
      return fenced.written > 0;
    });
    if (written) return;
    const found = await this.#query(`read run "${run.run_id}"`, () =>
      this.#database.query(`SELECT version, state FROM ${this.#runs} WHERE run_id = $1`, [
        run.run_id,
      ]),
    );
    const row = found.rows[0] as RunRow | undefined;
    // A retried write whose first try committed before its answer was lost.
    if (retried && row !== undefined && row.version === expected + 1 && row.state === state) return;
    checkJournalVersion(row === undefined ? undefined : { ...run, version: row.version }, run);
    throw new AgentError({
      code: 'run_journal_conflict',
      message: `Run "${run.run_id}" changed in the journal while it was being saved.`,
    });
  }

  async recordCall(
    runId: string,
    call: JournaledCall,
    options?: JournalWriteOptions,
  ): Promise<void> {
    const token = options?.leaseToken;
    const values: unknown[] = [
      runId,
      call.call_id,
      call.arguments_hash,
      JSON.stringify(call.result),
    ];
    // The first result stays, unless it is a retryable failure (`replacesJournaledResult`).
    const write = `INSERT INTO ${this.#calls} AS stored (run_id, call_id, arguments_hash, result)
       SELECT $1, $2, $3, $4 ${token === undefined ? '' : 'FROM lease'}
       ON CONFLICT (run_id, call_id, arguments_hash) DO UPDATE SET result = EXCLUDED.result
         WHERE (stored.result::jsonb ->> 'retryable') = 'true'
       RETURNING 1`;
    await this.#query(`record call "${call.call_id}" of run "${runId}"`, async () => {
      if (token === undefined) await this.#database.query(write, values);
      else await this.#fenced(write, [...values, token], runId, token);
    });
  }

  async calls(runId: string): Promise<JournaledCall[]> {
    const result = await this.#query(`read the calls of run "${runId}"`, () =>
      this.#database.query(
        `SELECT call_id, arguments_hash, result FROM ${this.#calls} WHERE run_id = $1 ORDER BY finished_at, call_id`,
        [runId],
      ),
    );
    return (result.rows as CallRow[]).map((row) => {
      const where = `The journaled call "${row.call_id}" of run "${runId}"`;
      return parseJournaledCall(
        {
          call_id: row.call_id,
          arguments_hash: row.arguments_hash,
          result: parseText(row.result, where),
        },
        where,
      );
    });
  }

  async delete(runId: string): Promise<boolean> {
    return this.#query(`delete run "${runId}"`, () =>
      this.#database.transaction(async (client) => {
        await client.query(`DELETE FROM ${this.#calls} WHERE run_id = $1`, [runId]);
        await client.query(
          `DELETE FROM ${this.#database.table('mtpx_run_leases')} WHERE run_id = $1`,
          [runId],
        );
        const deleted = await client.query(`DELETE FROM ${this.#runs} WHERE run_id = $1`, [runId]);
        return (deleted.rowCount ?? 0) > 0;
      }),
    );
  }

  async acquireLease(runId: string, holder: string, ttlMs: number): Promise<RunLease> {
    checkTtl(ttlMs);
    return this.#query(`acquire the lease of run "${runId}"`, async () => {
      await this.#database.ready();
      return this.#leases.acquire(this.#database.pool, runId, holder, ttlMs);
    });
  }

  async renewLease(runId: string, token: number, ttlMs: number): Promise<RunLease> {
    checkTtl(ttlMs);
    return this.#query(`renew the lease of run "${runId}"`, async () => {
      await this.#database.ready();
      return this.#leases.renew(this.#database.pool, runId, token, ttlMs);
    });
  }

  async releaseLease(runId: string, token: number): Promise<void> {
    await this.#query(`release the lease of run "${runId}"`, async () => {
      await this.#database.ready();
      await this.#leases.release(this.#database.pool, runId, token);
    });
  }

  async getLease(runId: string): Promise<RunLease | undefined> {
    return this.#query(`read the lease of run "${runId}"`, async () => {
      await this.#database.ready();
      return this.#leases.get(this.#database.pool, runId);
    });
  }

  /** Ends the connection pool, when the journal made it from a connection string. */
  async close(): Promise<void> {
    await this.#database.close();
  }

  /**
   * Runs `write` (which reads the CTE `lease`: `$N` the token, the last value) fenced by
   * the run's lease; rejects with `run_lease_lost` when the token is not the current one.
   */
  async #fenced(
    write: string,
    values: unknown[],
    runId: string,
    token: number,
  ): Promise<FencedRow> {
    const tokenParam = `$${values.length}`;
    const result = await this.#database.query(
      `WITH ${this.#leases.fencedCte('$1', tokenParam)}, written AS (${write})
       SELECT (SELECT count(*) FROM lease)::int AS leased, (SELECT count(*) FROM written)::int AS written`,
      values,
    );
    const row = result.rows[0] as FencedRow;
    if (row.leased === 0) throw await this.#leases.lost(this.#database.pool, runId, token);
    return row;
  }

  /** Runs `work`, retried after transient failures; other failures become `run_journal_failed`. */
  async #query<T>(action: string, work: (attempt: number) => Promise<T>): Promise<T> {
    try {
      return await withRetries(work, this.#retry);
    } catch (cause) {
      if (AgentError.isInstance(cause)) throw cause;
      const reason = cause instanceof Error ? cause.message : String(cause);
      throw new AgentError({
        code: 'run_journal_failed',
        message: `Could not ${action} in the PostgreSQL journal: ${reason}`,
        cause,
      });
    }
  }
}

function checkTtl(ttlMs: number): void {
  if (!Number.isFinite(ttlMs) || ttlMs <= 0) {
    throw new AgentError({
      code: 'invalid_option',
      message: `A lease lasts a positive number of milliseconds, got ${String(ttlMs)}.`,
    });
  }
}

function parseText(text: string, where: string): unknown {
  const parsed = safeParseJson(text);
  if (parsed.ok) return parsed.value;
  throw new AgentError({
    code: 'run_journal_failed',
    message: `${where} is not valid JSON: ${parsed.error.message}`,
    cause: parsed.error,
  });
}
