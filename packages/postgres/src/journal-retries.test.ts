import net, { type AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AgentEvent, JournaledRun, RunOutput } from '@mtpx/agent';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  allCalls,
  effectsOf,
  expectJournalMatches,
  waitForBlockedJournalQuery,
} from './__fixtures__/journal-checks';
import { leaseAgent, leaseTables } from './__fixtures__/lease-agent';
import {
  createTestSchema,
  type TestSchema,
  testConnectionString,
} from './__fixtures__/test-database';
import { isTransientPostgresError, migratePostgres, PostgresRunJournal } from './index';

let database: TestSchema;
let reference: RunOutput;

beforeAll(async () => {
  database = await createTestSchema();
  await migratePostgres({ pool: database.pool, schema: database.schema });
  for (const statement of leaseTables(database.schema)) await database.pool.query(statement);
  // The same agent, uninterrupted: the answer every run here must reach.
  reference = await leaseAgent({
    pool: database.pool,
    schema: database.schema,
    label: 'reference',
    journal: new PostgresRunJournal({ pool: database.pool, schema: database.schema }),
    ttlMs: 5000,
    slices: 2,
  }).run('Step.', { runId: 'run_reference' });
}, 60_000);
afterAll(async () => {
  await database.drop();
});

/**
 * A TCP relay to the test database that can go away and come back on the same port: while
 * it is stopped, its connections are cut and new ones are refused (`ECONNREFUSED`).
 */
function relay() {
  const target = new URL(testConnectionString);
  const sockets = new Set<net.Socket>();
  let server: net.Server | undefined;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const listening = net.createServer((client) => {
        const upstream = net.connect(Number(target.port || 5432), target.hostname);
        const drop = () => {
          client.destroy();
          upstream.destroy();
          sockets.delete(client);
          sockets.delete(upstream);
        };
        sockets.add(client);
        sockets.add(upstream);
        for (const socket of [client, upstream]) {
          socket.on('error', drop);
          socket.on('close', drop);
        }
        client.pipe(upstream);
        upstream.pipe(client);
      });
      listening.once('error', reject);
      listening.listen(port, '127.0.0.1', () => {
        port = (listening.address() as AddressInfo).port;
        server = listening;
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      if (server === undefined) return resolve();
      server.close(() => resolve());
      server = undefined;
    });
  return {
    listen,
    stop,
    url: () => {
      const url = new URL(testConnectionString);
      url.hostname = '127.0.0.1';
      url.port = String(port);
      return url.toString();
    },
  };
}

describe('journal writes retry a database that is briefly unreachable', () => {
  it('connections cut and refused mid-run: the journal retries until the database is back, the run completes, the journal matches', {
    timeout: 120_000,
  }, async () => {
    const gateway = relay();
    await gateway.listen();
    const journalPool = new pg.Pool({ connectionString: gateway.url(), max: 4 });
    journalPool.on('error', () => {});
    const retried: Array<{ code?: unknown; message: string }> = [];
    let refusedOnce: () => void = () => {};
    const refused = new Promise<void>((resolve) => {
      refusedOnce = resolve;
    });
    const journal = new PostgresRunJournal({
      pool: journalPool,
      schema: database.schema,
      retry: {
        onRetry: ({ error }) => {
          const failure = error as { code?: unknown; message: string };
          retried.push(failure);
          if (failure.code === 'ECONNREFUSED') refusedOnce();
        },
      },
    });
    const agent = leaseAgent({
      pool: database.pool,
      schema: database.schema,
      label: 'relayed',
      journal,
      ttlMs: 20_000,
      slices: 2,
    });
    try {
      let call2Started: () => void = () => {};
      const call2 = new Promise<void>((resolve) => {
        call2Started = resolve;
      });
      const onEvent = (event: AgentEvent) => {
        if (event.type === 'call-started' && event.callId === 'call_2') call2Started();
      };
      const run = agent.run('Step.', { runId: 'run_relayed', onEvent });
      run.catch(() => {});
      await call2;
      // The database goes away under the run (call_2's result is written while it is gone)…
      await gateway.stop();
      await refused;
      // …and comes back while the journal is still retrying.
      await gateway.listen();
      const output = await run;
      expect(output.final_text).toBe(reference.final_text);
      expect(retried.some((error) => error.code === 'ECONNREFUSED')).toBe(true);

      const check = new PostgresRunJournal({ pool: database.pool, schema: database.schema });
      const stored = (await check.get('run_relayed')) as JournaledRun;
      expect(stored).toMatchObject({ status: 'finished', final_text: output.final_text });
      expect(stored.tool_results).toEqual(output.tool_results);
      expect((await check.calls('run_relayed')).map((call) => call.call_id).sort()).toEqual([
        'call_1',
        'call_2',
        'call_3',
        'call_4',
      ]);
    } finally {
      await journalPool.end().catch(() => {});
      await gateway.stop();
    }
  });
});

describe('journal writes retry transient failures (terminated connections)', () => {
  it('journal connections terminated (pg_terminate_backend) under a write: the write is retried, the run completes, the journal matches', {
    timeout: 120_000,
  }, async () => {
    const applicationName = `mtpx_lease_${database.schema}`;
    const journalPool = new pg.Pool({
      connectionString: database.connectionString,
      max: 4,
      application_name: applicationName,
    });
    journalPool.on('error', () => {});
    const retried: unknown[] = [];
    const journal = new PostgresRunJournal({
      pool: journalPool,
      schema: database.schema,
      retry: { onRetry: ({ error }) => retried.push(error) },
    });
    const agent = leaseAgent({
      pool: database.pool,
      schema: database.schema,
      label: 'terminated',
      journal,
      ttlMs: 20_000,
      slices: 2,
    });
    const locker = await database.pool.connect();
    try {
      let call2Started: () => void = () => {};
      const call2 = new Promise<void>((resolve) => {
        call2Started = resolve;
      });
      const onEvent = (event: AgentEvent) => {
        if (event.type === 'call-started' && event.callId === 'call_2') call2Started();
      };
      const run = agent.run('Step.', { runId: 'run_terminated', onEvent });
      run.catch(() => {});
      await call2;
      // Hold the lease row: the journal's next fenced write (call_2's result) waits on it.
      await locker.query('BEGIN');
      await locker.query(
        `SELECT 1 FROM "${database.schema}".mtpx_run_leases WHERE run_id = $1 FOR UPDATE`,
        ['run_terminated'],
      );
      const terminated: number[] = [];
      for (let round = 0; round < 2; round++) {
        // Each round cuts off a write that waits — after the previous round's was retried.
        await waitForBlockedJournalQuery(
          database.pool,
          applicationName,
          () => retried.length >= round,
        );
        const result = await database.pool.query(
          'SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE application_name = $1',
          [applicationName],
        );
        terminated.push(result.rows[0].n);
      }
      // The retried write waits again; let it through.
      await waitForBlockedJournalQuery(database.pool, applicationName, () => retried.length >= 2);
      await locker.query('COMMIT');

      const output = await run;
      expect(output.final_text).toBe(reference.final_text);
      expect(terminated.every((count) => count >= 1)).toBe(true);
      expect(retried.length).toBeGreaterThanOrEqual(2);
      expect(retried.every((error) => isTransientPostgresError(error))).toBe(true);
      await expectJournalMatches(journal, output);
      expect(await effectsOf(database.pool, database.schema, 'run_terminated')).toEqual({
        applied: allCalls,
        attempts: allCalls,
      });
    } finally {
      await locker.query('ROLLBACK').catch(() => {});
      locker.release();
      await journalPool.end();
    }
  });

  it('a journal write that still fails after its retries fails the run with run_journal_failed, leaves it running in the journal, and a resume finishes it', {
    timeout: 120_000,
  }, async () => {
    const applicationName = `mtpx_lease_fail_${database.schema}`;
    const journalPool = new pg.Pool({
      connectionString: database.connectionString,
      max: 4,
      application_name: applicationName,
    });
    journalPool.on('error', () => {});
    const retried: unknown[] = [];
    const journal = new PostgresRunJournal({
      pool: journalPool,
      schema: database.schema,
      retry: { attempts: 2, onRetry: ({ error }) => retried.push(error) },
    });
    const agentOf = (label: string) =>
      leaseAgent({
        pool: database.pool,
        schema: database.schema,
        label,
        journal,
        ttlMs: 20_000,
        slices: 2,
      });
    const locker = await database.pool.connect();
    try {
      let call2Started: () => void = () => {};
      const call2 = new Promise<void>((resolve) => {
        call2Started = resolve;
      });
      let runFailed: () => void = () => {};
      const failed = new Promise<void>((resolve) => {
        runFailed = resolve;
      });
      const run = agentOf('failing').run('Step.', {
        runId: 'run_unwritable',
        onEvent: (event) => {
          if (event.type === 'call-started' && event.callId === 'call_2') call2Started();
          if (event.type === 'run-failed') runFailed();
        },
      });
      run.catch(() => {});
      await call2;
      await locker.query('BEGIN');
      await locker.query(
        `SELECT 1 FROM "${database.schema}".mtpx_run_leases WHERE run_id = $1 FOR UPDATE`,
        ['run_unwritable'],
      );
      // Every try of the journal's writes is cut off, until the run cannot go on.
      let stopped = false;
      void failed.then(() => {
        stopped = true;
      });
      while (!stopped) {
        const blocked = await database.pool.query(
          `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
           WHERE application_name = $1 AND wait_event_type = 'Lock'`,
          [applicationName],
        );
        if (blocked.rows[0].n === 0) await sleep(20);
      }
      await locker.query('COMMIT');
      await expect(run).rejects.toMatchObject({ code: 'run_journal_failed' });
      expect(retried.length).toBeGreaterThanOrEqual(1);

      // It stays resumable: still running in the journal, its lease released.
      expect(await journal.get('run_unwritable')).toMatchObject({ status: 'running' });
      expect((await journal.getLease('run_unwritable'))?.expiresInMs).toBeLessThanOrEqual(0);
      const output = await agentOf('resumed').resume('run_unwritable');
      expect(output.final_text).toBe(reference.final_text);
      await expectJournalMatches(journal, output);
      // call_2's effect was applied once (its result was not journaled: the resume ran it
      // again, and the idempotency key kept the effect single).
      expect((await effectsOf(database.pool, database.schema, 'run_unwritable')).applied).toEqual(
        allCalls,
      );
    } finally {
      await locker.query('ROLLBACK').catch(() => {});
      locker.release();
      await journalPool.end();
    }
  });

  it('tells passing failures from lasting ones, on errors the server and the driver really raise', async () => {
    const refused = new pg.Client({ host: '127.0.0.1', port: 1, connectionTimeoutMillis: 2000 });
    const refusal = await refused.connect().catch((error: unknown) => error);
    expect(isTransientPostgresError(refusal)).toBe(true);

    const client = new pg.Client({ connectionString: database.connectionString });
    client.on('error', () => {});
    await client.connect();
    const terminated = await client
      .query('SELECT pg_terminate_backend(pg_backend_pid())')
      .catch((error: unknown) => error);
    expect(isTransientPostgresError(terminated)).toBe(true);
    const afterwards = await client.query('SELECT 1').catch((error: unknown) => error);
    expect(isTransientPostgresError(afterwards)).toBe(true);
    await client.end().catch(() => {});

    const syntax = await database.pool.query('SELEC 1').catch((error: unknown) => error);
    expect(isTransientPostgresError(syntax)).toBe(false);
    await database.pool.query(
      `CREATE TABLE "${database.schema}".unique_probe (id int PRIMARY KEY)`,
    );
    await database.pool.query(`INSERT INTO "${database.schema}".unique_probe VALUES (1)`);
    const duplicate = await database.pool
      .query(`INSERT INTO "${database.schema}".unique_probe VALUES (1)`)
      .catch((error: unknown) => error);
    expect(isTransientPostgresError(duplicate)).toBe(false);

    // Two serializable transactions that each read what the other writes: one fails 40001.
    const table = `"${database.schema}".unique_probe`;
    const [one, two] = [await database.pool.connect(), await database.pool.connect()];
    try {
      for (const client of [one, two]) {
        await client.query('BEGIN ISOLATION LEVEL SERIALIZABLE');
        await client.query(`SELECT count(*) FROM ${table}`);
      }
      await one.query(`INSERT INTO ${table} VALUES (2)`);
      await two.query(`INSERT INTO ${table} VALUES (3)`);
      await one.query('COMMIT');
      const serialization = await two.query('COMMIT').catch((error: unknown) => error);
      expect(serialization).toMatchObject({ code: '40001' });
      expect(isTransientPostgresError(serialization)).toBe(true);

      // Two transactions that lock the same rows in opposite orders: one fails 40P01.
      await two.query('ROLLBACK').catch(() => {});
      await one.query('BEGIN');
      await two.query('BEGIN');
      await one.query(`UPDATE ${table} SET id = id WHERE id = 1`);
      await two.query(`UPDATE ${table} SET id = id WHERE id = 2`);
      const outcomes = await Promise.allSettled([
        one.query(`UPDATE ${table} SET id = id WHERE id = 2`),
        two.query(`UPDATE ${table} SET id = id WHERE id = 1`),
      ]);
      const deadlock = outcomes.find((outcome) => outcome.status === 'rejected');
      expect(deadlock?.status === 'rejected' && deadlock.reason).toMatchObject({ code: '40P01' });
      expect(isTransientPostgresError((deadlock as PromiseRejectedResult).reason)).toBe(true);
    } finally {
      for (const client of [one, two]) {
        await client.query('ROLLBACK').catch(() => {});
        client.release();
      }
    }
  });
});
