// The node-postgres shapes the stores accept (a `pg.Pool` fits), without importing `pg`.

/** The result of a query, as node-postgres gives it. */
export interface PostgresQueryResult {
  rows: unknown[];
  rowCount: number | null;
}

/** Anything that runs a parameterised query: a `pg.Pool`, a `pg.PoolClient`, a `pg.Client`. */
export interface PostgresQueryable {
  /** Runs `text` with `$1…$n` bound to `values`. */
  query(text: string, values?: unknown[]): Promise<PostgresQueryResult>;
}

/** A connection checked out of a pool (`pg.PoolClient`). */
export interface PostgresPoolClient extends PostgresQueryable {
  /** Returns the connection to its pool (an `error` discards it). */
  release(error?: Error | boolean): void;
}

/** A connection pool: a `pg.Pool` fits. */
export interface PostgresPool extends PostgresQueryable {
  /** Checks a connection out (for a transaction). */
  connect(): Promise<PostgresPoolClient>;
  /** Closes every connection of the pool. */
  end(): Promise<void>;
}
