import { setTimeout as sleep } from 'node:timers/promises';
import type { AgentEvent, JournaledRun, RunOutput } from '@mtpx/agent';
import { safeParseJson } from '@mtpx/protocol';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScript } from './__fixtures__/child-process';
import { leaseAgent, leaseTables } from './__fixtures__/lease-agent';
import { createTestSchema, type TestSchema } from './__fixtures__/test-database';
import { isTransientPostgresError, migratePostgres, PostgresRunJournal } from './index';

let database: TestSchema;
let reference: RunOutput;

beforeAll(async () => {
  database = await createTestSchema();
  await migratePostgres({ pool: database.pool, schema: database.schema });
  for (const statement of leaseTables(database.schema)) await database.pool.query(statement);
  // The same agent, uninterrupted, in this process: the answer every test must reach.
  const journal = new PostgresRunJournal({ pool: database.pool, schema: database.schema });
  reference = await leaseAgent({
    pool: database.pool,
    schema: database.schema,
    label: 'reference',
    journal,
    ttlMs: 5000,
  }).run('Step.', { runId: 'run_reference' });
}, 60_000);
afterAll(async () => {
  await database.drop();
});

function orchestrator(mode: 'run' | 'resume', runId: string, ttlMs: number) {
  return startScript('lease-orchestrator-child.ts', [
    database.connectionString,
    database.schema,
    mode,
    runId,
    String(ttlMs),
  ]);
}

async function finalOutput(child: ReturnType<typeof orchestrator>): Promise<RunOutput> {
  const match = await child.line(/^(final|error) (.*)$/);
  if (match[1] === 'error') throw new Error(`the run failed: ${match[2]}`);
  const parsed = safeParseJson(match[2] as string);
  if (!parsed.ok) throw parsed.error;
  return parsed.value as unknown as RunOutput;
}

interface BodyRow {
  call_id: string;
  process: string;
  event: string;
  at: Date;
}

async function bodyLog(runId: string): Promise<BodyRow[]> {
  const result = await database.pool.query(
    `SELECT call_id, process, event, at FROM "${database.schema}".body_log WHERE run_id = $1 ORDER BY at`,
    [runId],
  );
  return result.rows as BodyRow[];
}

async function effects(runId: string): Promise<{ applied: string[]; attempts: string[] }> {
  const applied = await database.pool.query(
    `SELECT call_id FROM "${database.schema}".effects WHERE run_id = $1 ORDER BY call_id`,
    [runId],
  );
  const attempts = await database.pool.query(
    `SELECT call_id FROM "${database.schema}".effect_attempts WHERE run_id = $1 ORDER BY call_id`,
    [runId],
  );
  const ids = (rows: Array<{ call_id: string }>) => rows.map((row) => row.call_id);
  return { applied: ids(applied.rows), attempts: ids(attempts.rows) };
}

/** The journal holds the run as it ended, and one result per call, matching the output. */
async function expectJournalMatches(journal: PostgresRunJournal, output: RunOutput) {
  const stored = (await journal.get(output.run_id)) as JournaledRun;
  expect(stored).toMatchObject({ status: 'finished', stop_reason: 'final' });
  expect(stored.final_text).toBe(output.final_text);
  expect(stored.tool_results).toEqual(output.tool_results);
  const calls = await journal.calls(output.run_id);
  expect(Object.fromEntries(calls.map((call) => [call.call_id, call.result.output]))).toEqual(
    Object.fromEntries(output.tool_results.map((result) => [result.call_id, result.output])),
  );
}

const allCalls = ['call_1', 'call_2', 'call_3', 'call_4'];

/** Resolves once the journal holds these calls' results (polling its state). */
async function journaled(journal: PostgresRunJournal, runId: string, callIds: string[]) {
  for (;;) {
    const calls = (await journal.calls(runId)).map((call) => call.call_id);
    if (callIds.every((id) => calls.includes(id))) return;
    await sleep(10);
  }
}

describe('one owner per run (PostgreSQL, separate processes)', () => {
  it('the owner paused (SIGSTOP) past its lease, the run resumed elsewhere, the owner continued (SIGCONT): it stops with run_lease_lost naming the new owner, its in-flight call aborted, no call started after the takeover, no effect twice, same answer', {
    timeout: 120_000,
  }, async () => {
    expect(reference.final_text).toBe('Steps: 2, 4, 8, 16.');
    const journal = new PostgresRunJournal({ pool: database.pool, schema: database.schema });
    const first = orchestrator('run', 'run_paused', 2000);
    await first.line(/^started call_2$/);
    await journaled(journal, 'run_paused', ['call_1']);
    first.child.kill('SIGSTOP');

    // The second process waits for the first one's lease to expire, then takes the run.
    const second = orchestrator('resume', 'run_paused', 2000);
    await second.line(/^started call_3$/);
    // The first process wakes up while the second is mid-call.
    first.child.kill('SIGCONT');
    const stopped = await first.line(/^error (\S+) (.*)$/);
    expect(stopped[1]).toBe('run_lease_lost');
    expect(stopped[2]).toMatch(/^resume:/); // names the new holder
    await first.line(/^aborted call_2$/);

    const output = await finalOutput(second);
    expect(output.final_text).toBe(reference.final_text);
    expect(output.tool_results.map((result) => result.output)).toEqual(
      reference.tool_results.map((result) => result.output),
    );
    expect(await first.exited).toMatchObject({ code: 0 });
    expect(await second.exited).toMatchObject({ code: 0 });

    const log = await bodyLog('run_paused');
    const rows = (process: string, event?: string) =>
      log.filter((row) => row.process === process && (event === undefined || row.event === event));
    // Calls started: the first process none after the second took over; the second only
    // what the journal did not hold (call_1 was journaled before the pause).
    expect(rows('run', 'start').map((row) => row.call_id)).toEqual(['call_1', 'call_2']);
    expect(rows('resume', 'start').map((row) => row.call_id)).toEqual([
      'call_2',
      'call_3',
      'call_4',
    ]);
    // Once the second process works, the first one does nothing but end the step its
    // call_2 was in when it was stopped (at most one slice), then its signal fires: it is
    // aborted, after the second had started call_3, and never reaches its effect.
    const firstOfSecond = Math.min(...rows('resume').map((row) => row.at.getTime()));
    const lateOfFirst = rows('run').filter((row) => row.at.getTime() > firstOfSecond);
    expect(lateOfFirst.every((row) => row.call_id === 'call_2')).toBe(true);
    expect(lateOfFirst.filter((row) => row.event === 'slice').length).toBeLessThanOrEqual(1);
    expect(lateOfFirst.at(-1)?.event).toBe('aborted');
    expect(rows('run', 'end').map((row) => row.call_id)).toEqual(['call_1']);
    const secondStartedCall3 = rows('resume', 'start').find((row) => row.call_id === 'call_3');
    expect(lateOfFirst.at(-1)?.at.getTime()).toBeGreaterThan(
      secondStartedCall3?.at.getTime() as number,
    );
    // Each effect applied once, and attempted once: the stale owner never reached one.
    expect(await effects('run_paused')).toEqual({ applied: allCalls, attempts: allCalls });

    await expectJournalMatches(journal, output);
    expect(await journal.getLease('run_paused')).toMatchObject({ token: 2 });
  });

  it('the owner kill -9d: resume is refused while its lease is live (naming it), and succeeds once it expired', {
    timeout: 120_000,
  }, async () => {
    const journal = new PostgresRunJournal({ pool: database.pool, schema: database.schema });
    const doomed = orchestrator('run', 'run_killed', 3000);
    await doomed.line(/^started call_2$/);
    await journaled(journal, 'run_killed', ['call_1']);
    doomed.child.kill('SIGKILL');
    expect(await doomed.exited).toMatchObject({ signal: 'SIGKILL' });

    const probe = leaseAgent({
      pool: database.pool,
      schema: database.schema,
      label: 'probe',
      journal,
      ttlMs: 3000,
    });
    const refused = await probe.resume('run_killed').catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'run_lease_held', runId: 'run_killed' });
    expect((refused as { holder: string }).holder).toMatch(/^run:/);
    expect(Date.parse((refused as { expiresAt: string }).expiresAt)).not.toBeNaN();

    // Wait for the dead owner's lease to run out, by its state in the journal.
    for (;;) {
      const lease = await journal.getLease('run_killed');
      if (lease === undefined || lease.expiresInMs <= 0) break;
      await sleep(Math.min(100, lease.expiresInMs));
    }
    const output = await finalOutput(orchestrator('resume', 'run_killed', 3000));
    expect(output.final_text).toBe(reference.final_text);
    expect(await effects('run_killed')).toEqual({ applied: allCalls, attempts: allCalls });
    await expectJournalMatches(journal, output);
    expect(await journal.getLease('run_killed')).toMatchObject({ token: 2 });
  });
});

describe('journal writes retry transient failures', () => {
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
        await waitForBlockedJournalQuery(applicationName, () => retried.length >= round);
        const result = await database.pool.query(
          'SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE application_name = $1',
          [applicationName],
        );
        terminated.push(result.rows[0].n);
      }
      // The retried write waits again; let it through.
      await waitForBlockedJournalQuery(applicationName, () => retried.length >= 2);
      await locker.query('COMMIT');

      const output = await run;
      expect(output.final_text).toBe(reference.final_text);
      expect(terminated.every((count) => count >= 1)).toBe(true);
      expect(retried.length).toBeGreaterThanOrEqual(2);
      expect(retried.every((error) => isTransientPostgresError(error))).toBe(true);
      await expectJournalMatches(journal, output);
      expect(await effects('run_terminated')).toEqual({ applied: allCalls, attempts: allCalls });
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
      expect((await effects('run_unwritable')).applied).toEqual(allCalls);
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
  });
});

/**
 * Resolves once `ready()` holds and a connection of the journal waits for a lock (polling
 * the server's view).
 */
async function waitForBlockedJournalQuery(
  applicationName: string,
  ready: () => boolean = () => true,
): Promise<void> {
  for (;;) {
    if (!ready()) {
      await sleep(20);
      continue;
    }
    const result = await database.pool.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'`,
      [applicationName],
    );
    if (result.rows[0].n > 0) return;
    await sleep(20);
  }
}
