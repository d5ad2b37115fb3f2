import {
  AgentError,
  checkJournalVersion,
  type JournaledCall,
  type JournaledRun,
  type RunJournal,
} from '@mtpx/agent';
import { parseJournaledCall, parseJournaledRun } from '@mtpx/agent/internal';
import { safeParseJson } from '@mtpx/protocol';
import { type PostgresConnectionOptions, PostgresDatabase } from './postgres-connection';

interface RunRow {
  version: number;
  state: string;
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
 * on its version, so two processes resuming the same run cannot both go on.
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

  constructor(options: PostgresConnectionOptions) {
    this.#database = new PostgresDatabase(options, 'PostgresRunJournal');
    this.#runs = this.#database.table('mtpx_runs');
    this.#calls = this.#database.table('mtpx_run_calls');
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

  async save(run: JournaledRun): Promise<void> {
    const expected = run.version ?? 0;
    const stored = { ...run, version: expected + 1 };
    const values = [run.run_id, run.status, expected + 1, JSON.stringify(stored)];
    const result = await this.#query(`save run "${run.run_id}"`, () =>
      expected === 0
        ? this.#database.query(
            `INSERT INTO ${this.#runs} (run_id, status, version, state) VALUES ($1, $2, $3, $4)
             ON CONFLICT (run_id) DO NOTHING`,
            values,
          )
        : this.#database.query(
            `UPDATE ${this.#runs} SET status = $2, version = $3, state = $4, updated_at = now()
             WHERE run_id = $1 AND version = $3 - 1`,
            values,
          ),
    );
    if (result.rowCount === 1) return;
    checkJournalVersion(await this.get(run.run_id), run);
    throw new AgentError({
      code: 'run_journal_conflict',
      message: `Run "${run.run_id}" changed in the journal while it was being saved.`,
    });
  }

  async recordCall(runId: string, call: JournaledCall): Promise<void> {
    await this.#query(`record call "${call.call_id}" of run "${runId}"`, () =>
      this.#database.query(
        `INSERT INTO ${this.#calls} (run_id, call_id, arguments_hash, result) VALUES ($1, $2, $3, $4)
         ON CONFLICT (run_id, call_id, arguments_hash) DO NOTHING`,
        [runId, call.call_id, call.arguments_hash, JSON.stringify(call.result)],
      ),
    );
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
        const deleted = await client.query(`DELETE FROM ${this.#runs} WHERE run_id = $1`, [runId]);
        return (deleted.rowCount ?? 0) > 0;
      }),
    );
  }

  /** Ends the connection pool, when the journal made it from a connection string. */
  async close(): Promise<void> {
    await this.#database.close();
  }

  async #query<T>(action: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
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

function parseText(text: string, where: string): unknown {
  const parsed = safeParseJson(text);
  if (parsed.ok) return parsed.value;
  throw new AgentError({
    code: 'run_journal_failed',
    message: `${where} is not valid JSON: ${parsed.error.message}`,
    cause: parsed.error,
  });
}
