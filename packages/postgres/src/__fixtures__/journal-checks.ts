// Checks the lease and retry tests share: effects applied, the journal against a run's
// output, and a journal query waiting for a lock.
import { setTimeout as sleep } from 'node:timers/promises';
import type { JournaledRun, RunOutput } from '@mtpx/agent';
import type pg from 'pg';
import { expect } from 'vitest';
import type { PostgresRunJournal } from '../postgres-run-journal';

/** The calls of the lease agent's run. */
export const allCalls = ['call_1', 'call_2', 'call_3', 'call_4'];

/** The calls whose effect was applied (once per idempotency key), and every attempt at one. */
export async function effectsOf(
  pool: pg.Pool,
  schema: string,
  runId: string,
): Promise<{ applied: string[]; attempts: string[] }> {
  const applied = await pool.query(
    `SELECT call_id FROM "${schema}".effects WHERE run_id = $1 ORDER BY call_id`,
    [runId],
  );
  const attempts = await pool.query(
    `SELECT call_id FROM "${schema}".effect_attempts WHERE run_id = $1 ORDER BY call_id`,
    [runId],
  );
  const ids = (rows: Array<{ call_id: string }>) => rows.map((row) => row.call_id);
  return { applied: ids(applied.rows), attempts: ids(attempts.rows) };
}

/** The journal holds the run as it ended, and one result per call, matching the output. */
export async function expectJournalMatches(
  journal: PostgresRunJournal,
  output: RunOutput,
): Promise<void> {
  const stored = (await journal.get(output.run_id)) as JournaledRun;
  expect(stored).toMatchObject({ status: 'finished', stop_reason: 'final' });
  expect(stored.final_text).toBe(output.final_text);
  expect(stored.tool_results).toEqual(output.tool_results);
  const calls = await journal.calls(output.run_id);
  expect(Object.fromEntries(calls.map((call) => [call.call_id, call.result.output]))).toEqual(
    Object.fromEntries(output.tool_results.map((result) => [result.call_id, result.output])),
  );
}

/**
 * Resolves once `ready()` holds and a connection named `applicationName` waits for a lock
 * (polling the server's view).
 */
export async function waitForBlockedJournalQuery(
  pool: pg.Pool,
  applicationName: string,
  ready: () => boolean = () => true,
): Promise<void> {
  for (;;) {
    if (!ready()) {
      await sleep(20);
      continue;
    }
    const result = await pool.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'`,
      [applicationName],
    );
    if (result.rows[0].n > 0) return;
    await sleep(20);
  }
}
