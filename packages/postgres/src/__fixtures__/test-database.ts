import { randomUUID } from 'node:crypto';
import pg from 'pg';

/** The test database: the project's PostgreSQL (trust auth), or MTPX_TEST_POSTGRES_URL. */
export const testConnectionString =
  process.env.MTPX_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A schema of its own for one test file, dropped (with everything in it) by `drop()`. */
export interface TestSchema {
  schema: string;
  connectionString: string;
  /** A pool for the test's own checks. */
  pool: pg.Pool;
  drop(): Promise<void>;
}

export async function createTestSchema(): Promise<TestSchema> {
  const schema = `mtpx_test_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  const pool = new pg.Pool({ connectionString: testConnectionString, max: 4 });
  pool.on('error', () => {});
  return {
    schema,
    connectionString: testConnectionString,
    pool,
    drop: async () => {
      try {
        await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      } finally {
        await pool.end();
      }
    },
  };
}
