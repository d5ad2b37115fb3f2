import { type PostgresConnectionOptions, PostgresDatabase } from './postgres-connection';

/**
 * Creates (or brings up to date) every table of `@mtpx/postgres` in one schema:
 * `mtpx_sessions`, `mtpx_runs`, `mtpx_run_calls`, `mtpx_provenance_entries`, and
 * `mtpx_migrations` that records what was applied. Safe to run from many processes at
 * once (they take turns on an advisory lock) and again later (applied steps are skipped).
 * Stores run it themselves before their first query; call it at deploy time to create the
 * tables up front, or to run with a role that may not create tables afterwards.
 *
 * @example
 * ```ts source="./postgres.examples.ts#migratePostgres"
 * await migratePostgres({ connectionString: 'postgres://app@db/app', schema: 'mtpx' });
 * ```
 */
export async function migratePostgres(options: PostgresConnectionOptions): Promise<void> {
  const database = new PostgresDatabase(options, 'migratePostgres');
  try {
    await database.ready();
  } finally {
    await database.close();
  }
}
