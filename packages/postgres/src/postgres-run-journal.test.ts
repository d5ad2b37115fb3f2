import type { JournaledRun, RunOutput } from '@mtpx/agent';
import { safeParseJson } from '@mtpx/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingAgent } from './__fixtures__/booking-agent';
import { startScript } from './__fixtures__/child-process';
import { createTestSchema, type TestSchema } from './__fixtures__/test-database';
import { migratePostgres, PostgresRunJournal, PostgresSessionStore } from './index';

let database: TestSchema;

beforeAll(async () => {
  database = await createTestSchema();
  await migratePostgres({ pool: database.pool, schema: database.schema });
  await database.pool.query(
    `CREATE TABLE "${database.schema}".side_effects (run_id text NOT NULL, call_id text NOT NULL, process text NOT NULL)`,
  );
});
afterAll(async () => {
  await database.drop();
});

function orchestrator(mode: 'run' | 'resume', runId: string, hang?: 'hang') {
  return startScript('orchestrator-child.ts', [
    database.connectionString,
    database.schema,
    mode,
    runId,
    ...(hang ? [hang] : []),
  ]);
}

async function finalOutput(child: ReturnType<typeof orchestrator>): Promise<RunOutput> {
  const match = await child.line(/^final (.*)$/);
  const parsed = safeParseJson(match[1] as string);
  if (!parsed.ok) throw parsed.error;
  return parsed.value as unknown as RunOutput;
}

async function sideEffects(runId: string): Promise<string[]> {
  const result = await database.pool.query(
    `SELECT process || ':' || call_id AS effect FROM "${database.schema}".side_effects WHERE run_id = $1 ORDER BY call_id`,
    [runId],
  );
  return result.rows.map((row: { effect: string }) => row.effect);
}

describe('PostgresRunJournal', () => {
  it('the orchestrator kill -9d mid-round, then resumed in a new process: no finished call runs again, same answer', {
    timeout: 120_000,
  }, async () => {
    const journal = new PostgresRunJournal({ pool: database.pool, schema: database.schema });
    const sessions = new PostgresSessionStore({ pool: database.pool, schema: database.schema });
    // The same agent, uninterrupted, in this process.
    const reference = await bookingAgent({
      pool: database.pool,
      schema: database.schema,
      label: 'reference',
      hang: false,
      journal,
      sessionStore: sessions,
    }).run('Book it.', { runId: 'run_reference' });

    const doomed = orchestrator('run', 'run_1', 'hang');
    await Promise.all([
      doomed.line(/^journaled call_a$/),
      doomed.line(/^journaled call_b$/),
      doomed.line(/^hanging call_c$/),
    ]);
    doomed.child.kill('SIGKILL');
    expect(await doomed.exited).toMatchObject({ signal: 'SIGKILL' });

    const resumed = await finalOutput(orchestrator('resume', 'run_1'));
    // One execution per call: call_a and call_b in the killed process, the rest after resume.
    expect(await sideEffects('run_1')).toEqual([
      'run:call_a',
      'run:call_b',
      'resume:call_c',
      'resume:call_d',
      'resume:call_e',
    ]);
    expect(resumed.final_text).toBe(reference.final_text);
    expect(resumed.final_text).toBe('Booked: 10, 20, 11, 110, 1100.');
    expect(resumed.tool_results.map((result) => result.output)).toEqual(
      reference.tool_results.map((result) => result.output),
    );
    expect(resumed.rounds).toBe(3);

    expect(await journal.get('run_1')).toMatchObject({ status: 'finished', stop_reason: 'final' });
    const session = await sessions.get('chat-run_1', { userId: 'ada' });
    expect(session?.runs.map((run) => [run.run_id, run.status])).toEqual([['run_1', 'finished']]);
    expect(session?.messages).toEqual(resumed.messages);
  });

  it('saves compare-and-swap, keeps the first result of a call key, and deletes a run with its calls', async () => {
    const journal = new PostgresRunJournal({ pool: database.pool, schema: database.schema });
    const now = new Date().toISOString();
    const run: JournaledRun = {
      run_id: 'run_cas',
      status: 'running',
      input: 'Hi',
      settings: { streaming: false, eager_dispatch: true, max_rounds: 10, tool_call_limit: null },
      messages: [{ role: 'user', content: 'Hi' }],
      rounds: 0,
      usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
      tool_results: [],
      final_text: '',
      started_at: now,
      updated_at: now,
    };
    await journal.save(run);
    await expect(journal.save(run)).rejects.toMatchObject({ code: 'run_journal_conflict' });
    const stored = (await journal.get('run_cas')) as JournaledRun;
    expect(stored.version).toBe(1);
    await journal.save({ ...stored, rounds: 1 });
    await expect(journal.save({ ...stored, rounds: 2 })).rejects.toMatchObject({
      code: 'run_journal_conflict',
    });
    expect(await journal.get('run_cas')).toMatchObject({ version: 2, rounds: 1 });

    const result = (output: number) => ({
      call_id: 'call_1',
      tool_name: 'ledger.add',
      output,
      success: true,
      cached: false,
      skipped: false,
      created_at: now,
    });
    await journal.recordCall('run_cas', {
      call_id: 'call_1',
      arguments_hash: 'h',
      result: result(1),
    });
    await journal.recordCall('run_cas', {
      call_id: 'call_1',
      arguments_hash: 'h',
      result: result(2),
    });
    expect((await journal.calls('run_cas')).map((call) => call.result.output)).toEqual([1]);
    // A retryable failure (a remote job lost with Redis) is replaced by the call's next result.
    const lost = {
      ...result(0),
      call_id: 'call_2',
      output: null,
      success: false,
      error: 'The job was lost.',
      retryable: true,
    };
    await journal.recordCall('run_cas', { call_id: 'call_2', arguments_hash: 'h', result: lost });
    await journal.recordCall('run_cas', {
      call_id: 'call_2',
      arguments_hash: 'h',
      result: { ...result(3), call_id: 'call_2' },
    });
    await journal.recordCall('run_cas', {
      call_id: 'call_2',
      arguments_hash: 'h',
      result: { ...result(4), call_id: 'call_2' },
    });
    expect((await journal.calls('run_cas')).map((call) => call.result.output)).toEqual([1, 3]);
    expect(await journal.delete('run_cas')).toBe(true);
    expect(await journal.get('run_cas')).toBeUndefined();
    expect(await journal.calls('run_cas')).toEqual([]);
    expect(await journal.delete('run_cas')).toBe(false);
  });
});
