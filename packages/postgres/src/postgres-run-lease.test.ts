import { setTimeout as sleep } from 'node:timers/promises';
import type { JournaledCall, JournaledRun } from '@mtpx/agent';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSchema, type TestSchema } from './__fixtures__/test-database';
import { migratePostgres, PostgresRunJournal } from './index';

let database: TestSchema;
let journal: PostgresRunJournal;

beforeAll(async () => {
  database = await createTestSchema();
  await migratePostgres({ pool: database.pool, schema: database.schema });
  journal = new PostgresRunJournal({ pool: database.pool, schema: database.schema });
});
afterAll(async () => {
  await database.drop();
});

const created = '2026-01-01T00:00:00.000Z';

function journaledRun(runId: string): JournaledRun {
  return {
    run_id: runId,
    status: 'running',
    input: 'Hi',
    settings: { streaming: false, eager_dispatch: 'safe', max_rounds: 10, tool_call_limit: null },
    messages: [{ role: 'user', content: 'Hi' }],
    rounds: 0,
    usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    tool_results: [],
    final_text: '',
    started_at: created,
    updated_at: created,
  };
}

function journaledCall(callId: string): JournaledCall {
  return {
    call_id: callId,
    arguments_hash: 'h',
    result: {
      call_id: callId,
      tool_name: 'ledger.add',
      output: 1,
      success: true,
      cached: false,
      skipped: false,
      created_at: created,
    },
  };
}

/** Resolves once the run's lease expired by the server's clock (polling its state). */
async function expired(runId: string): Promise<void> {
  for (;;) {
    const lease = await journal.getLease(runId);
    if (lease === undefined || lease.expiresInMs <= 0) return;
    await sleep(Math.min(50, lease.expiresInMs));
  }
}

describe('PostgresRunJournal leases', () => {
  it('grants a free run, refuses a live lease naming its holder and expiry, and grants it again once expired with the next token', async () => {
    expect(await journal.getLease('run_1')).toBeUndefined();
    const first = await journal.acquireLease('run_1', 'host-a:1', 2000);
    expect(first).toMatchObject({ runId: 'run_1', holder: 'host-a:1', token: 1 });
    expect(first.expiresInMs).toBeGreaterThan(0);
    expect(first.expiresInMs).toBeLessThanOrEqual(2000);

    const refused = await journal.acquireLease('run_1', 'host-b:2', 2000).catch((error) => error);
    expect(refused).toMatchObject({
      code: 'run_lease_held',
      runId: 'run_1',
      holder: 'host-a:1',
      expiresAt: first.expiresAt,
    });
    // A retried acquisition by the same holder keeps its token.
    expect(await journal.acquireLease('run_1', 'host-a:1', 2000)).toMatchObject({ token: 1 });

    await expired('run_1');
    expect(await journal.acquireLease('run_1', 'host-b:2', 60_000)).toMatchObject({
      holder: 'host-b:2',
      token: 2,
    });
  });

  it('of two holders acquiring at once, one gets the lease', async () => {
    const outcomes = await Promise.allSettled(
      ['a', 'b', 'c'].map((holder) => journal.acquireLease('run_race', holder, 60_000)),
    );
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    for (const outcome of outcomes) {
      if (outcome.status === 'rejected') {
        expect(outcome.reason).toMatchObject({ code: 'run_lease_held' });
      }
    }
  });

  it('renews only the current token, and refuses every write of a stale one', async () => {
    const a = await journal.acquireLease('run_2', 'a', 300);
    await journal.save(journaledRun('run_2'), { leaseToken: a.token });
    await journal.recordCall('run_2', journaledCall('call_1'), { leaseToken: a.token });
    expect(await journal.renewLease('run_2', a.token, 300)).toMatchObject({ token: a.token });

    await expired('run_2');
    // Expired but not taken: its holder may still renew it.
    expect(await journal.renewLease('run_2', a.token, 300)).toMatchObject({ token: a.token });
    await expired('run_2');
    const b = await journal.acquireLease('run_2', 'b', 60_000);
    expect(b.token).toBe(a.token + 1);

    await expect(journal.renewLease('run_2', a.token, 300)).rejects.toMatchObject({
      code: 'run_lease_lost',
      holder: 'b',
    });
    const stored = (await journal.get('run_2')) as JournaledRun;
    await expect(
      journal.save({ ...stored, rounds: 1 }, { leaseToken: a.token }),
    ).rejects.toMatchObject({ code: 'run_lease_lost', holder: 'b' });
    await expect(
      journal.recordCall('run_2', journaledCall('call_2'), { leaseToken: a.token }),
    ).rejects.toMatchObject({ code: 'run_lease_lost' });
    expect((await journal.calls('run_2')).map((call) => call.call_id)).toEqual(['call_1']);
    expect(await journal.get('run_2')).toMatchObject({ version: 1, rounds: 0 });

    await journal.save({ ...stored, rounds: 1 }, { leaseToken: b.token });
    await journal.recordCall('run_2', journaledCall('call_2'), { leaseToken: b.token });
    expect(await journal.get('run_2')).toMatchObject({ version: 2, rounds: 1 });
    // The version check still applies under the lease.
    await expect(
      journal.save({ ...stored, rounds: 2 }, { leaseToken: b.token }),
    ).rejects.toMatchObject({ code: 'run_journal_conflict' });
    // A token for a run that never had a lease is stale too; no token means no fencing.
    await expect(journal.save(journaledRun('run_3'), { leaseToken: 1 })).rejects.toMatchObject({
      code: 'run_lease_lost',
    });
    await journal.save(journaledRun('run_3'));
  });

  it('releases only with the current token; delete forgets the lease; a lease needs a positive time', async () => {
    const a = await journal.acquireLease('run_4', 'a', 60_000);
    await journal.releaseLease('run_4', a.token + 1);
    await expect(journal.acquireLease('run_4', 'b', 1000)).rejects.toMatchObject({
      code: 'run_lease_held',
    });
    await journal.releaseLease('run_4', a.token);
    expect(await journal.acquireLease('run_4', 'b', 1000)).toMatchObject({ token: 2 });
    await journal.save(journaledRun('run_4'));
    expect(await journal.delete('run_4')).toBe(true);
    expect(await journal.getLease('run_4')).toBeUndefined();
    await expect(journal.acquireLease('run_4', 'a', 0)).rejects.toMatchObject({
      code: 'invalid_option',
    });
  });
});
