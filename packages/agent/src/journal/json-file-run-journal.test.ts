import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scriptedProvider } from '@mtpx/providers/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgentError } from '../agent-error';
import {
  approvalPolicy,
  approvalScript,
  approvalTools,
} from '../approvals/__fixtures__/approval-agent';
import { createAgent } from '../run/agent';
import { JsonFileRunJournal } from './json-file-run-journal';
import type { JournaledRun } from './run-journal';

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'mtpx-run-journal-'));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

const run = (id: string): JournaledRun => ({
  run_id: id,
  status: 'running',
  input: 'hi',
  settings: { streaming: false, eager_dispatch: 'safe', max_rounds: 10, tool_call_limit: null },
  messages: [],
  rounds: 0,
  usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
  tool_results: [],
  final_text: '',
  started_at: new Date(0).toISOString(),
  updated_at: new Date(0).toISOString(),
});

function codeOf(error: unknown): string | undefined {
  return AgentError.isInstance(error) ? error.code : undefined;
}

describe('JsonFileRunJournal', () => {
  it('saves with compare-and-swap, records each call once, and reads back in a new instance', async () => {
    const journal = new JsonFileRunJournal({ directory });
    await journal.save(run('run_1'));
    const conflict = await journal.save(run('run_1')).catch((error: unknown) => error);
    expect(codeOf(conflict)).toBe('run_journal_conflict');
    const call = {
      call_id: 'call_1',
      arguments_hash: 'h',
      result: {
        call_id: 'call_1',
        tool_name: 't',
        output: 1,
        success: true,
        cached: false,
        skipped: false,
        created_at: new Date(0).toISOString(),
      },
    };
    await journal.recordCall('run_1', call);
    await journal.recordCall('run_1', { ...call, result: { ...call.result, output: 2 } });
    const again = new JsonFileRunJournal({ directory });
    expect((await again.get('run_1'))?.version).toBe(1);
    expect((await again.calls('run_1')).map((stored) => stored.result.output)).toEqual([1]);
    expect(await again.get('run_unknown')).toBeUndefined();
    expect(await again.delete('run_1')).toBe(true);
    expect(await again.get('run_1')).toBeUndefined();
    // No lock or temporary file is left behind.
    expect(await readdir(directory)).toEqual([]);
  });

  it('keeps one lease per run: held, renewed, lost, and stale-token writes refused', async () => {
    let now = 1_000;
    const journal = new JsonFileRunJournal({ directory, now: () => now });
    const first = await journal.acquireLease('run_1', 'a', 100);
    expect(first.token).toBe(1);
    expect(codeOf(await journal.acquireLease('run_1', 'b', 100).catch((e: unknown) => e))).toBe(
      'run_lease_held',
    );
    await journal.save(run('run_1'), { leaseToken: 1 });
    now += 200;
    const second = await journal.acquireLease('run_1', 'b', 100);
    expect(second.token).toBe(2);
    expect(codeOf(await journal.renewLease('run_1', 1, 100).catch((e: unknown) => e))).toBe(
      'run_lease_lost',
    );
    const stale = await journal
      .save({ ...run('run_1'), version: 1 }, { leaseToken: 1 })
      .catch((e: unknown) => e);
    expect(codeOf(stale)).toBe('run_lease_lost');
    await journal.releaseLease('run_1', 2);
    expect((await journal.getLease('run_1'))?.expiresInMs).toBe(0);
  });

  it('a file that is not a journal is run_journal_failed', async () => {
    await writeFile(join(directory, 'run_bad.run.json'), '{"run": {"run_id": 3}}');
    const error = await new JsonFileRunJournal({ directory })
      .get('run_bad')
      .catch((e: unknown) => e);
    expect(codeOf(error)).toBe('run_journal_failed');
  });

  it('a run that stops waiting for approval is resumed with decisions by an agent over the same directory', async () => {
    const ran = new Map<string, number>();
    const agent = () =>
      createAgent({
        provider: scriptedProvider(approvalScript),
        tools: approvalTools(ran),
        policy: approvalPolicy,
        journal: new JsonFileRunJournal({ directory }),
      });
    const stopped = await agent().run('Tidy.', { runId: 'run_file' });
    expect(stopped.stopReason).toBe('awaiting_approval');
    const approvals = (stopped.pendingApprovals ?? []).map((approval) => ({
      approvalId: approval.approvalId,
      approved: approval.toolName === 'doc.write',
    }));
    const resumed = await agent().resume('run_file', { approvals });
    expect(resumed.stopReason).toBe('final');
    expect(Object.fromEntries(ran)).toEqual({ call_read: 1, call_summary: 1, call_write: 1 });
  });
});
