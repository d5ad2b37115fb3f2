// Approvals that outlive the request (issue 27), across real processes on PostgreSQL: a
// run stops waiting for approval in one process; another process with the journal
// resumes it with one approval granted and one declined, and ends as an in-process
// approver giving the same decisions would; finished calls never run again; forged,
// mismatched and replayed decisions run nothing; two concurrent resumes act once.
import type { PendingApproval, RunOutput } from '@mtpx/agent';
import { safeParseJson } from '@mtpx/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScript } from './__fixtures__/child-process';
import { createTestSchema, type TestSchema } from './__fixtures__/test-database';
import { migratePostgres } from './index';

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

type Outcome = { output: RunOutput } | { error: string };

async function processOutcome(
  mode: 'run' | 'resume' | 'in-process',
  runId: string,
  decisions?: unknown[],
): Promise<Outcome> {
  const child = startScript('approval-child.ts', [
    database.connectionString,
    database.schema,
    mode,
    runId,
    ...(decisions === undefined ? [] : [JSON.stringify(decisions)]),
  ]);
  const match = await child.line(/^(output|error) (.*)$/);
  await child.exited;
  if (match[1] === 'error') return { error: match[2] as string };
  const parsed = safeParseJson(match[2] as string);
  if (!parsed.ok) throw parsed.error;
  return { output: parsed.value as unknown as RunOutput };
}

function outputOf(outcome: Outcome): RunOutput {
  if ('error' in outcome) throw new Error(`the process failed: ${outcome.error}`);
  return outcome.output;
}

async function sideEffects(runId: string): Promise<Record<string, string[]>> {
  const { rows } = await database.pool.query<{ call_id: string; process: string }>(
    `SELECT call_id, process FROM "${database.schema}".side_effects WHERE run_id = $1 ORDER BY call_id, process`,
    [runId],
  );
  const byCall: Record<string, string[]> = {};
  for (const row of rows) byCall[row.call_id] = [...(byCall[row.call_id] ?? []), row.process];
  return byCall;
}

const decision = (approval: PendingApproval | undefined, approved: boolean) => ({
  approvalId: approval?.approvalId,
  approved,
  signature: approval?.signature,
});

describe('approvals across processes (PostgreSQL journal)', () => {
  it('stops waiting with exactly the two calls pending; resumed in a new process it ends as an in-process approver would', {
    timeout: 180_000,
  }, async () => {
    const reference = outputOf(await processOutcome('in-process', 'run_reference'));
    expect(reference.stopReason).toBe('final');

    const stopped = outputOf(await processOutcome('run', 'run_later'));
    expect(stopped.stopReason).toBe('awaiting_approval');
    const pending = stopped.pendingApprovals ?? [];
    expect(pending.map((approval) => [approval.callId, approval.toolName])).toEqual([
      ['call_delete', 'doc.delete'],
      ['call_write', 'doc.write'],
    ]);
    expect(pending[1]?.arguments).toEqual({ text: 'summary of the draft text' });
    expect(await sideEffects('run_later')).toEqual({ call_read: ['run'], call_summary: ['run'] });
    const { rows } = await database.pool.query<{ status: string }>(
      `SELECT status FROM "${database.schema}".mtpx_runs WHERE run_id = 'run_later'`,
    );
    expect(rows[0]?.status).toBe('waiting');

    const [deleteApproval, writeApproval] = pending;
    // A forged decision (no signature), another call's signature, another call named: nothing runs.
    for (const [bad, code] of [
      [[{ approvalId: writeApproval?.approvalId, approved: true }], 'approval_invalid'],
      [
        [{ ...decision(writeApproval, true), signature: deleteApproval?.signature }],
        'approval_invalid',
      ],
      [[{ ...decision(writeApproval, true), callId: 'call_delete' }], 'approval_mismatch'],
    ] as const) {
      expect(await processOutcome('resume', 'run_later', [...bad])).toEqual({ error: code });
    }
    expect(Object.keys(await sideEffects('run_later'))).toEqual(['call_read', 'call_summary']);

    const resumed = outputOf(
      await processOutcome('resume', 'run_later', [
        decision(writeApproval, true),
        decision(deleteApproval, false),
      ]),
    );
    expect(resumed.stopReason).toBe('final');
    expect(resumed.finalText).toBe(reference.finalText);
    // Finished calls ran once, in the first process; the approved write once, in the second.
    expect(await sideEffects('run_later')).toEqual({
      call_read: ['run'],
      call_summary: ['run'],
      call_write: ['resume'],
    });
    // The same decision again is a replay: refused, nothing runs.
    expect(await processOutcome('resume', 'run_later', [decision(writeApproval, true)])).toEqual({
      error: 'approval_used',
    });
    expect((await sideEffects('run_later')).call_write).toEqual(['resume']);
  });

  it('one approval at a time, and two concurrent resumes act on an approval once', {
    timeout: 180_000,
  }, async () => {
    const stopped = outputOf(await processOutcome('run', 'run_race'));
    const [deleteApproval, writeApproval] = stopped.pendingApprovals ?? [];
    const first = outputOf(
      await processOutcome('resume', 'run_race', [decision(deleteApproval, false)]),
    );
    expect(first.stopReason).toBe('awaiting_approval');
    expect(first.pendingApprovals?.map((approval) => approval.approvalId)).toEqual([
      writeApproval?.approvalId,
    ]);
    const replay = await processOutcome('resume', 'run_race', [decision(deleteApproval, true)]);
    expect(replay).toEqual({ error: 'approval_used' });

    const both = await Promise.all([
      processOutcome('resume', 'run_race', [decision(writeApproval, true)]),
      processOutcome('resume', 'run_race', [decision(writeApproval, true)]),
    ]);
    const finished = both.filter(
      (outcome) => 'output' in outcome && outcome.output.stopReason === 'final',
    );
    expect(finished.length).toBeGreaterThanOrEqual(1);
    for (const outcome of both) {
      if ('error' in outcome) expect(['run_lease_held', 'approval_used']).toContain(outcome.error);
    }
    expect(await sideEffects('run_race')).toEqual({
      call_read: ['run'],
      call_summary: ['run'],
      call_write: ['resume'],
    });
  });
});
