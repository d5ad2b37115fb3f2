import { leaseHeld, leaseLost, type RunLease } from '@mtpx/agent';
import type { PostgresQueryable } from './postgres-pool';

interface LeaseRow {
  holder: string;
  token: number;
  expires_at: Date | string;
  expires_in_ms: number | string;
}

const leaseColumns = `holder, token, expires_at,
  (extract(epoch FROM (expires_at - clock_timestamp())) * 1000)::float8 AS expires_in_ms`;

/**
 * The SQL of run leases (internal): one row per run in `mtpx_run_leases`, its expiry by
 * the database's clock, its token grown by one per new holder. Writes of the journal are
 * fenced by {@link fencedCte}: they lock the lease row in share mode for their statement,
 * so a new holder's acquisition and a stale holder's write never interleave.
 */
export class PostgresRunLeases {
  readonly #table: string;

  constructor(table: string) {
    this.#table = table;
  }

  /** A CTE (`lease`) holding the run's lease row when its token is `$tokenParam`, locked for the statement. */
  fencedCte(runIdParam: string, tokenParam: string): string {
    return `lease AS (SELECT token FROM ${this.#table} WHERE run_id = ${runIdParam} AND token = ${tokenParam} FOR SHARE)`;
  }

  async acquire(
    client: PostgresQueryable,
    runId: string,
    holder: string,
    ttlMs: number,
    again = true,
  ): Promise<RunLease> {
    const result = await client.query(
      `INSERT INTO ${this.#table} AS current (run_id, holder, token, expires_at)
       VALUES ($1, $2, 1, clock_timestamp() + $3 * interval '1 millisecond')
       ON CONFLICT (run_id) DO UPDATE SET
         holder = EXCLUDED.holder,
         token = CASE WHEN current.holder = EXCLUDED.holder THEN current.token ELSE current.token + 1 END,
         expires_at = EXCLUDED.expires_at
       WHERE current.expires_at <= clock_timestamp() OR current.holder = EXCLUDED.holder
       RETURNING ${leaseColumns}`,
      [runId, holder, ttlMs],
    );
    const row = result.rows[0] as LeaseRow | undefined;
    if (row !== undefined) return leaseOf(runId, row);
    const current = await this.get(client, runId);
    // Released or expired between the two statements: try once more.
    if (again && (current === undefined || current.expiresInMs <= 0)) {
      return this.acquire(client, runId, holder, ttlMs, false);
    }
    if (current === undefined)
      throw new Error(`The lease of run "${runId}" vanished while it was acquired.`);
    throw leaseHeld(runId, current);
  }

  async renew(
    client: PostgresQueryable,
    runId: string,
    token: number,
    ttlMs: number,
  ): Promise<RunLease> {
    const result = await client.query(
      `UPDATE ${this.#table} SET expires_at = clock_timestamp() + $3 * interval '1 millisecond'
       WHERE run_id = $1 AND token = $2 RETURNING ${leaseColumns}`,
      [runId, token, ttlMs],
    );
    const row = result.rows[0] as LeaseRow | undefined;
    if (row !== undefined) return leaseOf(runId, row);
    throw leaseLost(runId, token, await this.get(client, runId));
  }

  async release(client: PostgresQueryable, runId: string, token: number): Promise<void> {
    await client.query(
      `UPDATE ${this.#table} SET expires_at = clock_timestamp()
       WHERE run_id = $1 AND token = $2 AND expires_at > clock_timestamp()`,
      [runId, token],
    );
  }

  async get(client: PostgresQueryable, runId: string): Promise<RunLease | undefined> {
    const result = await client.query(
      `SELECT ${leaseColumns} FROM ${this.#table} WHERE run_id = $1`,
      [runId],
    );
    const row = result.rows[0] as LeaseRow | undefined;
    return row === undefined ? undefined : leaseOf(runId, row);
  }

  /** The error of a fenced write that found no lease row with its token. */
  async lost(client: PostgresQueryable, runId: string, token: number): Promise<Error> {
    return leaseLost(runId, token, await this.get(client, runId));
  }
}

function leaseOf(runId: string, row: LeaseRow): RunLease {
  const expiresAt = row.expires_at instanceof Date ? row.expires_at : new Date(row.expires_at);
  return {
    runId,
    holder: row.holder,
    token: Number(row.token),
    expiresAt: expiresAt.toISOString(),
    expiresInMs: Number(row.expires_in_ms),
  };
}
