import { statSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ProvenanceEntryInput, semanticHash, verifyChain } from '@mtpx/mpl';
import { planReferenceOf } from '@mtpx/mpl/internal';
import Database from 'better-sqlite3';
import { describe, expect, it, vi } from 'vitest';
import { planId, reasoning, taskPlan, toolInvocation, toolResult } from '../__fixtures__/tutorial';
import { SqliteProvenanceStore } from './sqlite-provenance-store';

function record(stype: string, payload: object): ProvenanceEntryInput {
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

  it('with synchronous: full (the default), acknowledges a turn’s commit after one sync of the log', async () => {
    const { store } = await tutorialStore();
    // The four appends of one turn: one transaction, one fdatasync of the log.
    expect(store.logSyncStats).toMatchObject({ syncs: 1, commits: 1 });
    await store.append(record('ai.agent.Reasoning.v1', { ...reasoning, conclusion: 'next' }));
    expect(store.logSyncStats).toMatchObject({ syncs: 2, commits: 2 });
    await store.close();
  });

  it('uses WAL mode', async () => {
    const { dataDir, store } = await tutorialStore();
    await store.close();
    const database = new Database(join(dataDir, 'provenance.db'), { readonly: true });
    expect(database.pragma('journal_mode', { simple: true })).toBe('wal');
    database.close();
  });

  it('links on the entry another connection committed since its last batch (its cached head is dropped)', async () => {
    const { dataDir, store } = await tutorialStore();
    // A second writer extends the chain behind the first store's back (regression: the
    // first store linked its next batch on its cached head, and the commit failed UNIQUE).
    const other = SqliteProvenanceStore.open({ dataDir });
    const intruder = await other.append(
      record('ai.agent.Reasoning.v1', { ...reasoning, conclusion: 'from elsewhere' }),
    );
    expect(intruder.seq).toBe(5);
    await other.close();
    const [first, second] = await Promise.all([
      store.append(record('ai.agent.Reasoning.v1', { ...reasoning, conclusion: 'first' })),
      store.append(record('ai.agent.Reasoning.v1', { ...reasoning, conclusion: 'second' })),
    ]);
    expect(first).toMatchObject({ seq: 6, parent_hash: intruder.sem_hash });
    expect(second).toMatchObject({ seq: 7, parent_hash: first.sem_hash });
    const chain = await store.chain(planId, { payloads: true });
    expect(chain.map((entry) => entry.seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(verifyChain(chain)).toMatchObject({ valid: true });
    await store.close();
  });

  it('after a failed commit, stores nothing of its batch, and links what follows on what is stored', async () => {
    const { dataDir, store } = await tutorialStore();
    tamper(
      dataDir,
      `CREATE TRIGGER refuse BEFORE INSERT ON provenance_entries
         WHEN NEW.payload LIKE '%refuse me%' BEGIN SELECT RAISE(ABORT, 'refused'); END`,
    );
    const settle = (promise: Promise<{ seq: number }>) =>
      promise.then(
        (entry) => ({ ok: true, seq: entry.seq }),
        (error: Error) => ({ ok: false, message: error.message }),
      );
    const [first, second] = await Promise.all([
      settle(store.append(record('ai.agent.Reasoning.v1', { ...reasoning, conclusion: 'first' }))),
      settle(
        store.append(record('ai.agent.Reasoning.v1', { ...reasoning, conclusion: 'refuse me' })),
      ),
    ]);
    expect(first).toMatchObject({ ok: false, message: /refused/ });
    expect(second).toMatchObject({ ok: false, message: /refused/ });
    const third = await store.append(
      record('ai.agent.Reasoning.v1', { ...reasoning, conclusion: 'third' }),
    );
    const chain = await store.chain(planId, { payloads: true });
    expect(third).toMatchObject({ seq: 5, parent_hash: chain[3]?.sem_hash });
    expect(chain.map((entry) => entry.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(verifyChain(chain)).toMatchObject({ valid: true });
    await store.close();
  });

  it('while another connection holds the write lock, waits without blocking, then commits on what is stored', async () => {
    const { dataDir, store } = await tutorialStore();
    const lock = new Database(join(dataDir, 'provenance.db'));
    lock.exec('BEGIN IMMEDIATE');
    const appended = Promise.all([
      store.append(record('ai.agent.Reasoning.v1', { ...reasoning, conclusion: 'first' })),
      store.append(record('ai.agent.Reasoning.v1', { ...reasoning, conclusion: 'second' })),
    ]);
    let answered = false;
    void appended.then(() => {
      answered = true;
    });
    // The event loop keeps turning while the commit waits for the lock: ten timer turns pass.
    for (let turn = 0; turn < 10; turn++) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(answered).toBe(false);
    // Another writer's entry lands before the lock is released; the waiting batch is
    // linked on it.
    lock
      .prepare(
        `INSERT INTO provenance_entries (plan_key, plan_id, seq, stype, sem_hash, parent_hash, entry_hash, timestamp, qom_profile, qom_passed, payload)
         SELECT plan_key, plan_id, 5, stype, sem_hash, sem_hash, entry_hash, timestamp, qom_profile, qom_passed, payload
         FROM provenance_entries WHERE plan_key = ? AND seq = 4`,
      )
      .run(planId);
    lock.exec('COMMIT');
    lock.close();
    const [first, second] = await appended;
    expect([first.seq, second.seq]).toEqual([6, 7]);
    const chain = await store.chain(planId);
    expect(chain.map((entry) => entry.seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(first.parent_hash).toBe(chain[4]?.sem_hash);
    await store.close();
  });

  it('with synchronous: normal, acknowledges each commit without a sync and persists', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'mpl-sqlite-'));
    const store = SqliteProvenanceStore.open({ dataDir, synchronous: 'normal' });
    expect(store.logSyncStats).toBeUndefined();
    const entries = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        store.append(record('ai.agent.Reasoning.v1', { ...reasoning, thought: `step ${index}` })),
      ),
    );
    expect(entries.map((entry) => entry.seq)).toEqual(
      Array.from({ length: 50 }, (_, index) => index + 1),
    );
    await store.close();
    const reopened = SqliteProvenanceStore.open({ dataDir, readOnly: true });
    const chain = await reopened.chain(planId, { payloads: true });
    expect(chain).toHaveLength(50);
    expect(verifyChain(chain)).toMatchObject({ valid: true });
    await reopened.close();
  });

  it('checkpoints the log on its own thread, not in a commit, and the chain stays whole', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'mpl-sqlite-'));
    const store = SqliteProvenanceStore.open({ dataDir, synchronous: 'normal' });
    const databaseFile = join(dataDir, 'provenance.db');
    const sizeBefore = statSync(databaseFile).size;
    // One commit each: a checkpoint is asked for every 100 commits.
    for (let index = 0; index < 250; index++)
      await store.append(
        record('ai.agent.Reasoning.v1', { ...reasoning, conclusion: `n${index}` }),
      );
    await vi.waitFor(() => expect(store.checkpointStats?.checkpoints).toBeGreaterThanOrEqual(1), {
      timeout: 30_000,
      interval: 20,
    });
    expect(store.checkpointStats?.framesCopied).toBeGreaterThan(0);
    // The copied pages are in the database file itself, not only in the log.
    expect(statSync(databaseFile).size).toBeGreaterThan(sizeBefore);
    await store.close();
    const reopened = SqliteProvenanceStore.open({ dataDir, readOnly: true });
    const chain = await reopened.chain(planId, { payloads: true });
    expect(chain).toHaveLength(250);
    expect(verifyChain(chain).valid).toBe(true);
    expect(reopened.checkpointStats).toBeUndefined();
    await reopened.close();
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
