import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSchema, type TestSchema } from './__fixtures__/test-database';
import { migratePostgres, PostgresSessionStore, PostgresStoreError, SCHEMA_VERSION } from './index';

let database: TestSchema;

beforeAll(async () => {
  database = await createTestSchema();
});
afterAll(async () => {
  await database.drop();
});

describe('migratePostgres', () => {
  it('creates every table once when several connections migrate at the same moment', async () => {
    await Promise.all(
      Array.from({ length: 4 }, () =>
        migratePostgres({ connectionString: database.connectionString, schema: database.schema }),
      ),
    );
    const applied = await database.pool.query(
      `SELECT id FROM "${database.schema}".mtpx_migrations ORDER BY id`,
    );
    expect(applied.rows.map((row: { id: number }) => row.id)).toEqual(
      Array.from({ length: SCHEMA_VERSION }, (_unused, index) => index + 1),
    );
    const tables = await database.pool.query(
      'SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name',
      [database.schema],
    );
    expect(tables.rows.map((row: { table_name: string }) => row.table_name)).toEqual([
      'mtpx_migrations',
      'mtpx_provenance_entries',
      'mtpx_run_calls',
      'mtpx_run_leases',
      'mtpx_runs',
      'mtpx_sessions',
    ]);
    // Again later: nothing to do, nothing fails.
    await migratePostgres({ pool: database.pool, schema: database.schema });
  });

  it('refuses a store without a pool or connection string, and reports a database it cannot reach', async () => {
    expect(() => new PostgresSessionStore({})).toThrow(PostgresStoreError);
    const unreachable = new pg.Pool({ host: '127.0.0.1', port: 1, connectionTimeoutMillis: 2000 });
    unreachable.on('error', () => {});
    try {
      await expect(migratePostgres({ pool: unreachable })).rejects.toMatchObject({
        code: 'migration_failed',
      });
      await expect(
        new PostgresSessionStore({ pool: unreachable }).get('chat'),
      ).rejects.toMatchObject({ code: 'session_store_failed' });
    } finally {
      await unreachable.end();
    }
  });
});
