import { scriptedProvider } from '@mtpx/providers/testing';
import { describe, expect, it } from 'vitest';
import { AgentError } from '../agent-error';
import type { AgentEvent } from '../events/agent-events';
import { InMemoryRunJournal } from '../journal/in-memory-run-journal';
import { createAgent } from '../run/agent';
import { approvalPolicy, approvalScript, approvalTools } from './__fixtures__/approval-agent';
import { approvalSignature } from './approval-signature';

/** A fresh agent over `journal`, as another process would make it. */
function agentOver(
  journal: InMemoryRunJournal | undefined,
  ran: Map<string, number>,
  extra: { approve?: (name: string) => boolean; approvalSecret?: string } = {},
) {
  return createAgent({
    provider: scriptedProvider(approvalScript),
    tools: approvalTools(ran),
    policy: approvalPolicy,
    ...(journal === undefined ? {} : { journal }),
    ...(extra.approve === undefined
      ? {}
      : { approve: (spec) => (extra.approve as (name: string) => boolean)(spec.name) }),
    ...(extra.approvalSecret === undefined ? {} : { approvalSecret: extra.approvalSecret }),
  });
}

function errorCode(error: unknown): string | undefined {
  return AgentError.isInstance(error) ? error.code : (error as { code?: string })?.code;
}

describe('approvals that outlive the run', () => {
  it('stops with exactly the destructive call and the write pending, the reads done; a resume elsewhere ends as an in-process approver would', async () => {
    // The reference: an in-process approver that approves the write and declines the delete.
    const inProcessRan = new Map<string, number>();
    const reference = await agentOver(undefined, inProcessRan, {
      approve: (name) => name === 'doc.write',
    }).run('Tidy the documents.');
    expect(reference.stopReason).toBe('final');

    const journal = new InMemoryRunJournal();
    const ran = new Map<string, number>();
    const events: AgentEvent[] = [];
    const stopped = await agentOver(journal, ran).run('Tidy the documents.', {
      runId: 'run_approvals',
      onEvent: (event) => events.push(event),
    });
    expect(stopped.stopReason).toBe('awaiting_approval');
    expect(Object.fromEntries(ran)).toEqual({ call_read: 1, call_summary: 1 });
    const pending = stopped.pendingApprovals ?? [];
    expect(pending.map((approval) => approval.callId)).toEqual(['call_delete', 'call_write']);
    const write = pending[1];
    expect(write).toMatchObject({
      runId: 'run_approvals',
      toolName: 'doc.write',
      riskLevel: 'write',
      arguments: { text: 'summary of the draft text' },
      references: ['call_summary'],
      round: 1,
    });
    expect(write?.approvalId).toMatch(/^apr_[0-9a-f]{32}$/);
    // The events name the same approval ids.
    const requested = events.filter((event) => event.type === 'approval-requested');
    expect(requested.map((event) => event.approvalId)).toEqual(
      expect.arrayContaining(pending.map((approval) => approval.approvalId)),
    );
    const stored = await journal.get('run_approvals');
    expect(stored?.status).toBe('waiting');
    expect(stored?.pending_approvals?.map((approval) => approval.call_id)).toEqual([
      'call_delete',
      'call_write',
    ]);

    // Another process with the journal: approve the write, decline the delete.
    const resumed = await agentOver(journal, ran).resume('run_approvals', {
      approvals: [
        { approvalId: write?.approvalId as string, approved: true },
        { approvalId: pending[0]?.approvalId as string, approved: false },
      ],
    });
    expect(resumed.stopReason).toBe('final');
    expect(resumed.finalText).toBe(reference.finalText);
    expect(resumed.finalText).toContain('declined');
    // Nothing finished ran again; the declined call never ran.
    expect(Object.fromEntries(ran)).toEqual({ call_read: 1, call_summary: 1, call_write: 1 });
    expect((await journal.get('run_approvals'))?.status).toBe('finished');
    // The run has ended: the same decision again is a replay, refused; nothing runs.
    const replay = await agentOver(journal, ran)
      .resume('run_approvals', {
        approvals: [{ approvalId: write?.approvalId as string, approved: true }],
      })
      .catch((caught: unknown) => caught);
    expect(errorCode(replay)).toBe('approval_used');
    expect(ran.get('call_write')).toBe(1);
  });

  it('a streamed run with safe eager dispatch stops the same way and resumes streamed', async () => {
    const journal = new InMemoryRunJournal();
    const ran = new Map<string, number>();
    const stream = agentOver(journal, ran).stream('Tidy.', { runId: 'run_streamed' });
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    const stopped = await stream.result;
    expect(stopped.stopReason).toBe('awaiting_approval');
    expect(types).toContain('call-held');
    expect(stopped.pendingApprovals?.map((approval) => approval.callId)).toEqual([
      'call_delete',
      'call_write',
    ]);
    const resumed = await agentOver(journal, ran).resume('run_streamed', {
      approvals: (stopped.pendingApprovals ?? []).map((approval) => ({
        approvalId: approval.approvalId,
        approved: true,
      })),
    });
    expect(resumed.stopReason).toBe('final');
    expect(Object.fromEntries(ran)).toEqual({
      call_read: 1,
      call_summary: 1,
      call_delete: 1,
      call_write: 1,
    });
  });

  it('answers approvals one at a time: the undecided one stays pending under the same id', async () => {
    const journal = new InMemoryRunJournal();
    const ran = new Map<string, number>();
    const first = await agentOver(journal, ran).run('Tidy.', { runId: 'run_one_by_one' });
    const [deleteApproval, writeApproval] = first.pendingApprovals ?? [];
    const second = await agentOver(journal, ran).resume('run_one_by_one', {
      approvals: [
        { approvalId: deleteApproval?.approvalId as string, approved: false, reason: 'keep it' },
      ],
    });
    expect(second.stopReason).toBe('awaiting_approval');
    expect(second.pendingApprovals?.map((approval) => approval.approvalId)).toEqual([
      writeApproval?.approvalId,
    ]);
    const third = await agentOver(journal, ran).resume('run_one_by_one', {
      approvals: [{ approvalId: writeApproval?.approvalId as string, approved: true }],
    });
    expect(third.stopReason).toBe('final');
    expect(third.finalText).toContain('keep it');
    expect(Object.fromEntries(ran)).toEqual({ call_read: 1, call_summary: 1, call_write: 1 });
  });

  it('refuses forged, replayed and mismatched decisions with typed errors, running nothing', async () => {
    const secret = 'sixteen bytes or more of secret';
    const journal = new InMemoryRunJournal();
    const ran = new Map<string, number>();
    const agent = () => agentOver(journal, ran, { approvalSecret: secret });
    const first = await agent().run('Tidy.', { runId: 'run_signed' });
    const [deleteApproval, writeApproval] = first.pendingApprovals ?? [];
    expect(writeApproval?.signature).toMatch(/^hmac-sha256:/);
    const before = Object.fromEntries(ran);
    const attempts: Array<[string, unknown[]]> = [
      ['approval_invalid', [{ approvalId: writeApproval?.approvalId, approved: true }]],
      [
        'approval_invalid',
        [
          {
            approvalId: writeApproval?.approvalId,
            approved: true,
            signature: approvalSignature('another secret of sixteen bytes', {
              approvalId: writeApproval?.approvalId as string,
              runId: 'run_signed',
              callId: 'call_write',
              toolName: 'doc.write',
              argumentsDigest: writeApproval?.argumentsDigest as string,
            }),
          },
        ],
      ],
      [
        'approval_invalid',
        [
          {
            approvalId: writeApproval?.approvalId,
            approved: true,
            signature: deleteApproval?.signature,
          },
        ],
      ],
      [
        'approval_mismatch',
        [
          {
            approvalId: writeApproval?.approvalId,
            approved: true,
            signature: writeApproval?.signature,
            argumentsDigest: deleteApproval?.argumentsDigest,
          },
        ],
      ],
      [
        'approval_mismatch',
        [
          {
            approvalId: writeApproval?.approvalId,
            approved: true,
            signature: writeApproval?.signature,
            callId: 'call_delete',
          },
        ],
      ],
    ];
    for (const [code, approvals] of attempts) {
      const error = await agent()
        .resume('run_signed', { approvals: approvals as never })
        .catch((caught: unknown) => caught);
      expect(errorCode(error)).toBe(code);
    }
    expect(Object.fromEntries(ran)).toEqual(before);
    expect((await journal.get('run_signed'))?.status).toBe('waiting');

    const decision = {
      approvalId: writeApproval?.approvalId as string,
      approved: true,
      signature: writeApproval?.signature as string,
    };
    const decided = await agent().resume('run_signed', { approvals: [decision] });
    expect(decided.stopReason).toBe('awaiting_approval');
    expect(ran.get('call_write')).toBe(1);
    // The same decision again is a replay.
    const replay = await agent()
      .resume('run_signed', { approvals: [decision] })
      .catch((caught: unknown) => caught);
    expect(errorCode(replay)).toBe('approval_used');
    expect(ran.get('call_write')).toBe(1);
  });

  it('two concurrent resumes act on an approval once', async () => {
    const journal = new InMemoryRunJournal();
    const ran = new Map<string, number>();
    const first = await agentOver(journal, ran).run('Tidy.', { runId: 'run_race' });
    const approvals = (first.pendingApprovals ?? []).map((approval) => ({
      approvalId: approval.approvalId,
      approved: true,
    }));
    const outcomes = await Promise.allSettled([
      agentOver(journal, ran).resume('run_race', { approvals }),
      agentOver(journal, ran).resume('run_race', { approvals }),
    ]);
    const fulfilled = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    const rejected = outcomes.filter(
      (outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected',
    );
    expect(fulfilled).toHaveLength(1);
    expect(rejected).toHaveLength(1);
    expect(['run_lease_held', 'approval_used', 'run_journal_conflict']).toContain(
      errorCode(rejected[0]?.reason),
    );
    expect(Object.fromEntries(ran)).toEqual({
      call_read: 1,
      call_summary: 1,
      call_delete: 1,
      call_write: 1,
    });
  });

  it("an approver answering 'defer' leaves the call for later; without a journal the model reads approval_required", async () => {
    const ran = new Map<string, number>();
    const journal = new InMemoryRunJournal();
    const deferring = createAgent({
      provider: scriptedProvider(approvalScript),
      tools: approvalTools(ran),
      policy: approvalPolicy,
      journal,
      approve: (spec) => (spec.name === 'doc.write' ? 'defer' : true),
    });
    const output = await deferring.run('Tidy.');
    expect(output.stopReason).toBe('awaiting_approval');
    expect(output.pendingApprovals?.map((approval) => approval.callId)).toEqual(['call_write']);
    expect(ran.get('call_delete')).toBe(1);

    const unjournaled = await agentOver(undefined, new Map()).run('Tidy.');
    expect(unjournaled.stopReason).toBe('final');
    expect(unjournaled.finalText).toContain('no approver is configured');
  });
});
