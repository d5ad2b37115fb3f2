import pg from 'pg';
import { runMigrations } from './migrations';
import { PostgresStoreError } from './postgres-error';
import type { PostgresPool, PostgresQueryable, PostgresQueryResult } from './postgres-pool';
import { qualifiedName } from './sql-names';

/** Where a store's tables are. */
export interface PostgresConnectionOptions {
  /** Your `pg.Pool` (the store never ends it). */
  pool?: PostgresPool;
  /** Or a connection string (`postgres://user@host:5432/db`): the store makes its own pool and ends it on `close()`. */
  connectionString?: string;
  /** The schema holding the tables, created when missing. Default `public`. */
  schema?: string;
  /** Most connections of a pool the store makes itself. Default 10. */
  maxConnections?: number;
  /**
   * How long a pool the store makes waits for a connection before the operation fails
   * (a database that is down fails calls instead of hanging them), in milliseconds.
   * Default 10,000.
   */
  connectTimeoutMs?: number;
}

/**
 * One store's way to its database: the pool, the schema, and migrations run once before
 * the first query (internal).
 */
export class PostgresDatabase {
  readonly pool: PostgresPool;
  readonly schema: string;
  readonly #ownsPool: boolean;
  #migrated: Promise<void> | undefined;

  constructor(options: PostgresConnectionOptions, storeName: string) {
    const schema = options?.schema ?? 'public';
    if (typeof schema !== 'string' || schema === '' || schema.length > 63) {
      throw invalidOption(`${storeName}: \`schema\` must be a name of 1 to 63 characters.`);
    }
    this.schema = schema;
    if (options.pool !== undefined) {
      this.pool = options.pool;
      this.#ownsPool = false;
    } else if (typeof options.connectionString === 'string' && options.connectionString !== '') {
      this.pool = new pg.Pool({
        connectionString: options.connectionString,
        max: options.maxConnections ?? 10,
        connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
      }) as unknown as PostgresPool;
      // An idle connection that breaks (the server restarted) must not crash the process.
      (this.pool as unknown as pg.Pool).on('error', () => {});
      this.#ownsPool = true;
    } else {
      throw invalidOption(`${storeName} needs a \`pool\` (a pg.Pool) or a \`connectionString\`.`);
    }
  }

  /** `"schema"."table"`. */
  table(name: string): string {
    return qualifiedName(this.schema, name);
  }

  /** Creates the tables on first use; later calls wait for the same run. */
  ready(): Promise<void> {
    this.#migrated ??= runMigrations(this.pool, this.schema).catch((error: unknown) => {
      this.#migrated = undefined;
      throw error;
    });
    return this.#migrated;
  }

  /** Runs `work` in one transaction on one connection: committed when it resolves, rolled back when it throws. */
  async transaction<T>(work: (client: PostgresQueryable) => Promise<T>): Promise<T> {
    await this.ready();
    const client = await this.pool.connect();
    let broken = false;
    try {
      await client.query('BEGIN');
      const value = await work(client);
      await client.query('COMMIT');
      return value;
    } catch (error) {
      try {
        await client.query('ROLLBACK');
      } catch {
        broken = true;
      }
      throw error;
    } finally {
      client.release(broken);
    }
  }

  /** Runs one statement after the migrations. */
  async query(text: string, values?: unknown[]): Promise<PostgresQueryResult> {
    await this.ready();
    return this.pool.query(text, values);
  }

  /** Ends the pool when the store made it. */
  async close(): Promise<void> {
    if (this.#ownsPool) await this.pool.end();
  }
}

function invalidOption(message: string): PostgresStoreError {
  return new PostgresStoreError({ code: 'invalid_option', message });
}

/** The SQLSTATE of a node-postgres error (`23505` for a unique violation), if any. */
export function sqlStateOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}
