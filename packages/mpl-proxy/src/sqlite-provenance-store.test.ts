import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ProvenanceRecord, planReferenceOf, semanticHash, verifyChain } from '@mtpx/mpl';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { planId, reasoning, taskPlan, toolInvocation, toolResult } from './__fixtures__/tutorial';
import { SqliteProvenanceStore } from './sqlite-provenance-store';

function record(stype: string, payload: object): ProvenanceRecord {
  const reference = planReferenceOf(payload);
  return {
    ...(reference.planId ? { plan_id: reference.planId } : {}),
    invocation_id: reference.invocationId ?? null,
    stype,
    method: 'agent.test',
    sem_hash: semanticHash(payload),
    payload: payload as never,
    qom_profile: 'qom-basic',
    qom_passed: true,
  };
}

async function tutorialStore() {
  const dataDir = await mkdtemp(join(tmpdir(), 'mpl-sqlite-'));
  const store = SqliteProvenanceStore.open({ dataDir });
  // Appended in one turn: one transaction, linked in call order.
  await Promise.all([
    store.append(record('org.agent.TaskPlan.v1', taskPlan)),
    store.append(record('ai.agent.Reasoning.v1', reasoning)),
    store.append(record('org.agent.ToolInvocation.v1', toolInvocation)),
    store.append(record('org.agent.ToolResult.v1', toolResult)),
  ]);
  return { dataDir, store };
}

function tamper(dataDir: string, sql: string, ...parameters: unknown[]) {
  const database = new Database(join(dataDir, 'provenance.db'));
  database.prepare(sql).run(...parameters);
  database.close();
}

async function verdictAfter(dataDir: string) {
  const store = SqliteProvenanceStore.open({ dataDir });
  try {
    return verifyChain(await store.chain(planId, { payloads: true }));
  } finally {
    await store.close();
  }
}

describe('SqliteProvenanceStore', () => {
  it('links a group-committed batch in order, joins the result to its invocation’s plan, and persists', async () => {
    const { dataDir, store } = await tutorialStore();
    const chain = await store.chain(planId, { payloads: true });
    expect(chain.map((entry) => [entry.seq, entry.stype])).toEqual([
      [1, 'org.agent.TaskPlan.v1'],
      [2, 'ai.agent.Reasoning.v1'],
      [3, 'org.agent.ToolInvocation.v1'],
      [4, 'org.agent.ToolResult.v1'],
    ]);
    expect(chain[3]?.payload).toEqual(toolResult);
    expect(verifyChain(chain).valid).toBe(true);
    await store.close();
    const reopened = SqliteProvenanceStore.open({ dataDir });
    expect(await reopened.planIds()).toEqual([planId]);
    const next = await reopened.append(
      record('ai.agent.Reasoning.v1', { ...reasoning, conclusion: 'again' }),
    );
    expect(next).toMatchObject({ seq: 5, parent_hash: chain[3]?.sem_hash });
    expect(verifyChain(await reopened.chain(planId, { payloads: true })).valid).toBe(true);
    await reopened.close();
  });

  it('uses WAL mode', async () => {
    const { dataDir, store } = await tutorialStore();
    await store.close();
    const database = new Database(join(dataDir, 'provenance.db'), { readonly: true });
    expect(database.pragma('journal_mode', { simple: true })).toBe('wal');
    database.close();
  });

  it('after a failed commit, commits nothing linked on it, and links what follows on what is stored', async () => {
    const { dataDir, store } = await tutorialStore();
    // A second writer extends the chain behind the first store's back: the first store's
    // next entry (linked on its cached head) collides with it and its commit fails.
    const other = SqliteProvenanceStore.open({ dataDir });
    const intruder = await other.append(
      record('ai.agent.Reasoning.v1', { ...reasoning, conclusion: 'from elsewhere' }),
    );
    expect(intruder.seq).toBe(5);
    await other.close();
    // Another connection holds the write lock, so the first batch waits in the writer
    // while the second, linked on it, is sent behind it.
    const lock = new Database(join(dataDir, 'provenance.db'));
    lock.exec('BEGIN IMMEDIATE');
    const settle = (promise: Promise<{ seq: number }>) =>
      promise.then(
        (entry) => ({ ok: true, seq: entry.seq }),
        (error: Error) => ({ ok: false, message: error.message }),
      );
    const first = settle(
      store.append(record('ai.agent.Reasoning.v1', { ...reasoning, conclusion: 'first' })),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    const second = settle(
      store.append(record('ai.agent.Reasoning.v1', { ...reasoning, conclusion: 'second' })),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    lock.exec('ROLLBACK');
    lock.close();
    expect(await first).toMatchObject({ ok: false, message: /UNIQUE/ });
    // Refused by the writer as linked on a failed batch (or, on a machine too slow to have
    // handed the first batch to the writer yet, failed in the same transaction).
    expect(await second).toMatchObject({ ok: false, message: /earlier batch|UNIQUE/ });
    // What comes next is linked on what is stored: the intruder's entry.
    const third = await store.append(
      record('ai.agent.Reasoning.v1', { ...reasoning, conclusion: 'third' }),
    );
    expect(third).toMatchObject({ seq: 6, parent_hash: intruder.sem_hash });
    const chain = await store.chain(planId, { payloads: true });
    expect(chain.map((entry) => entry.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(verifyChain(chain)).toMatchObject({ valid: true });
    await store.close();
  });

  it('refuses appends after close', async () => {
    const { store } = await tutorialStore();
    await store.close();
    await expect(store.append(record('org.agent.TaskPlan.v1', taskPlan))).rejects.toThrowError(
      /closed/,
    );
  });
});

describe('tampering with the SQLite file is detected by verifyChain', () => {
  it('an edited payload', async () => {
    const { dataDir, store } = await tutorialStore();
    await store.close();
    tamper(
      dataDir,
      'UPDATE provenance_entries SET payload = ? WHERE seq = 2',
      JSON.stringify({ ...reasoning, conclusion: 'Skip step 2' }),
    );
    expect((await verdictAfter(dataDir)).problems.map((problem) => problem.code)).toEqual([
      'sem_hash_mismatch',
    ]);
  });

  it('a payload edited into something that is not JSON', async () => {
    const { dataDir, store } = await tutorialStore();
    await store.close();
    tamper(dataDir, "UPDATE provenance_entries SET payload = '{broken' WHERE seq = 1");
    expect((await verdictAfter(dataDir)).problems.map((problem) => problem.code)).toEqual([
      'sem_hash_mismatch',
    ]);
  });

  it('an edited QoM verdict', async () => {
    const { dataDir, store } = await tutorialStore();
    await store.close();
    tamper(dataDir, 'UPDATE provenance_entries SET qom_passed = 0 WHERE seq = 3');
    expect((await verdictAfter(dataDir)).problems.map((problem) => problem.code)).toEqual([
      'entry_hash_mismatch',
    ]);
  });

  it('a deleted entry', async () => {
    const { dataDir, store } = await tutorialStore();
    await store.close();
    tamper(dataDir, 'DELETE FROM provenance_entries WHERE seq = 2');
    const verdict = await verdictAfter(dataDir);
    expect(verdict.valid).toBe(false);
    expect(verdict.problems.map((problem) => problem.code)).toEqual(
      expect.arrayContaining(['sequence_mismatch', 'parent_mismatch', 'entry_hash_mismatch']),
    );
  });

  it('swapped entries', async () => {
    const { dataDir, store } = await tutorialStore();
    await store.close();
    tamper(dataDir, 'UPDATE provenance_entries SET seq = -1 WHERE seq = 2');
    tamper(dataDir, 'UPDATE provenance_entries SET seq = 2 WHERE seq = 3');
    tamper(dataDir, 'UPDATE provenance_entries SET seq = 3 WHERE seq = -1');
    const verdict = await verdictAfter(dataDir);
    expect(verdict.problems.map((problem) => problem.code)).toContain('entry_hash_mismatch');
    expect(verdict.problems.map((problem) => problem.code)).toContain('parent_mismatch');
  });

  it('a rewritten payload with a recomputed sem_hash', async () => {
    const { dataDir, store } = await tutorialStore();
    await store.close();
    const forged = { ...reasoning, conclusion: 'Skip step 2' };
    tamper(
      dataDir,
      'UPDATE provenance_entries SET payload = ?, sem_hash = ? WHERE seq = 2',
      JSON.stringify(forged),
      semanticHash(forged),
    );
    const codes = (await verdictAfter(dataDir)).problems.map((problem) => problem.code);
    expect(codes).toEqual(['entry_hash_mismatch', 'parent_mismatch']);
  });
});
