import { setTimeout as sleep } from 'node:timers/promises';
import type { RunOutput } from '@mtpx/agent';
import { safeParseJson } from '@mtpx/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScript } from './__fixtures__/child-process';
import { allCalls, effectsOf, expectJournalMatches } from './__fixtures__/journal-checks';
import { leaseAgent, leaseTables } from './__fixtures__/lease-agent';
import { createTestSchema, type TestSchema } from './__fixtures__/test-database';
import { migratePostgres, PostgresRunJournal } from './index';

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

/**
 * The lease each orchestrator takes. Long enough that a process starved of CPU by a busy
 * machine (a second test suite beside this one) still renews it in time: a 2 s lease was
 * lost there once before the first call began (issue 23's flake rounds).
 */
const leaseTtlMs = 5000;

function orchestrator(mode: 'run' | 'resume', runId: string, ttlMs = leaseTtlMs) {
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
    const first = orchestrator('run', 'run_paused');
    await first.line(/^started call_2$/);
    await journaled(journal, 'run_paused', ['call_1']);
    first.child.kill('SIGSTOP');

    // The second process waits for the first one's lease to expire, then takes the run.
    const second = orchestrator('resume', 'run_paused');
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
    expect(await effectsOf(database.pool, database.schema, 'run_paused')).toEqual({
      applied: allCalls,
      attempts: allCalls,
    });

    await expectJournalMatches(journal, output);
    expect(await journal.getLease('run_paused')).toMatchObject({ token: 2 });
  });

  it('the owner kill -9d: resume is refused while its lease is live (naming it), and succeeds once it expired', {
    timeout: 120_000,
  }, async () => {
    const journal = new PostgresRunJournal({ pool: database.pool, schema: database.schema });
    const doomed = orchestrator('run', 'run_killed');
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
    const output = await finalOutput(orchestrator('resume', 'run_killed'));
    expect(output.final_text).toBe(reference.final_text);
    expect(await effectsOf(database.pool, database.schema, 'run_killed')).toEqual({
      applied: allCalls,
      attempts: allCalls,
    });
    await expectJournalMatches(journal, output);
    expect(await journal.getLease('run_killed')).toMatchObject({ token: 2 });
  });
});
