import { PostgresStoreError } from './postgres-error';
import type { PostgresPool, PostgresQueryable } from './postgres-pool';
import { qualifiedName, quoteIdentifier } from './sql-names';

/** One step of the schema; applied once, in order, recorded in `mtpx_migrations`. */
interface Migration {
  id: number;
  name: string;
  statements: (table: (name: string) => string) => string[];
}

const migrations: readonly Migration[] = [
  {
    id: 1,
    name: 'sessions, run journal, provenance',
    statements: (table) => [
      `CREATE TABLE IF NOT EXISTS ${table('mtpx_sessions')} (
        session_id text PRIMARY KEY,
        user_id text,
        version integer NOT NULL,
        data text NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE TABLE IF NOT EXISTS ${table('mtpx_runs')} (
        run_id text PRIMARY KEY,
        status text NOT NULL,
        version integer NOT NULL,
        state text NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE TABLE IF NOT EXISTS ${table('mtpx_run_calls')} (
        run_id text NOT NULL,
        call_id text NOT NULL,
        arguments_hash text NOT NULL,
        result text NOT NULL,
        finished_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (run_id, call_id, arguments_hash)
      )`,
      `CREATE TABLE IF NOT EXISTS ${table('mtpx_provenance_entries')} (
        plan_key text NOT NULL,
        seq integer NOT NULL,
        plan_id text,
        stype text NOT NULL,
        method text,
        invocation_id text,
        sem_hash text NOT NULL,
        parent_hash text,
        entry_hash text NOT NULL,
        timestamp text NOT NULL,
        qom_profile text NOT NULL,
        qom_passed boolean NOT NULL,
        validated boolean,
        payload text NOT NULL,
        PRIMARY KEY (plan_key, seq)
      )`,
      `CREATE INDEX IF NOT EXISTS mtpx_provenance_invocations
        ON ${table('mtpx_provenance_entries')} (invocation_id)
        WHERE invocation_id IS NOT NULL AND plan_id IS NOT NULL`,
    ],
  },
  {
    id: 2,
    name: 'run leases',
    statements: (table) => [
      // One row per run that was ever owned; its token only grows (the fencing token).
      `CREATE TABLE IF NOT EXISTS ${table('mtpx_run_leases')} (
        run_id text PRIMARY KEY,
        holder text NOT NULL,
        token integer NOT NULL,
        expires_at timestamptz NOT NULL
      )`,
    ],
  },
];

/** The newest schema version this package knows. */
export const SCHEMA_VERSION = migrations.length;

/** Applies the missing migrations to `schema` (internal: stores call it through `ready()`). */
export async function runMigrations(pool: PostgresPool, schema: string): Promise<void> {
  const table = (name: string) => qualifiedName(schema, name);
  let client: Awaited<ReturnType<PostgresPool['connect']>> | undefined;
  try {
    client = await pool.connect();
    await client.query('BEGIN');
    // One migrator per schema at a time, across processes; released at COMMIT.
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`mtpx.migrate.${schema}`]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdentifier(schema)}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${table('mtpx_migrations')} (
        id integer PRIMARY KEY,
        name text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`,
    );
    const applied = await appliedIds(client, table('mtpx_migrations'));
    for (const migration of migrations) {
      if (applied.has(migration.id)) continue;
      for (const statement of migration.statements(table)) await client.query(statement);
      await client.query(`INSERT INTO ${table('mtpx_migrations')} (id, name) VALUES ($1, $2)`, [
        migration.id,
        migration.name,
      ]);
    }
    await client.query('COMMIT');
  } catch (cause) {
    await client?.query('ROLLBACK').catch(() => {});
    throw new PostgresStoreError({
      code: 'migration_failed',
      message: `Could not create the @mtpx/postgres tables in schema "${schema}": ${cause instanceof Error ? cause.message : String(cause)}`,
      cause,
    });
  } finally {
    client?.release();
  }
}

async function appliedIds(
  client: PostgresQueryable,
  migrationsTable: string,
): Promise<Set<number>> {
  const result = await client.query(`SELECT id FROM ${migrationsTable}`);
  return new Set((result.rows as Array<{ id: number }>).map((row) => row.id));
}
