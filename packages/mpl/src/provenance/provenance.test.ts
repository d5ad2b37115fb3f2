import { describe, expect, it } from 'vitest';
import { canonicalize } from '../hashing/canonical-json';
import { hashCanonical, semanticHash } from '../hashing/semantic-hash';
import {
  computeEntryHash,
  linkEntry,
  type ProvenanceEntry,
  type ProvenanceEntryInput,
  planReferenceOf,
  verifyChain,
} from './provenance';
import { InMemoryProvenanceStore } from './provenance-memory';

const planId = '550e8400-e29b-41d4-a716-446655440010';
const invocationId = '550e8400-e29b-41d4-a716-446655440020';

function record(
  stype: string,
  payload: Record<string, unknown>,
  extra: Partial<ProvenanceEntryInput> = {},
) {
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
    ...extra,
  } satisfies ProvenanceEntryInput;
}

async function tutorialChain() {
  const store = new InMemoryProvenanceStore();
  await store.append(record('org.agent.TaskPlan.v1', { planId, goal: 'g', steps: [] }));
  await store.append(record('ai.agent.Reasoning.v1', { planId, thought: 't', conclusion: 'c' }));
  await store.append(
    record('org.agent.ToolInvocation.v1', { invocationId, planId, tool: 'x', args: {} }),
  );
  await store.append(
    record('org.agent.ToolResult.v1', { invocationId, status: 'success', result: {} }),
  );
  return { store, chain: await store.chain(planId, { payloads: true }) };
}

describe('provenance chains', () => {
  it('link each entry to the previous one by sem_hash, and a ToolResult joins its invocation’s plan', async () => {
    const { chain } = await tutorialChain();
    expect(chain.map((entry) => [entry.seq, entry.stype, entry.plan_id])).toEqual([
      [1, 'org.agent.TaskPlan.v1', planId],
      [2, 'ai.agent.Reasoning.v1', planId],
      [3, 'org.agent.ToolInvocation.v1', planId],
      [4, 'org.agent.ToolResult.v1', planId],
    ]);
    expect(chain[0]?.parent_hash).toBeNull();
    for (let index = 1; index < chain.length; index++)
      expect(chain[index]?.parent_hash).toBe(chain[index - 1]?.sem_hash);
    expect(verifyChain(chain)).toEqual({
      valid: true,
      length: 4,
      head: chain[3]?.entry_hash,
      problems: [],
    });
  });

  it('keep payloads out of listings unless asked', async () => {
    const { store } = await tutorialChain();
    expect((await store.chain(planId))[0]).not.toHaveProperty('payload');
    expect(await store.planIds()).toEqual([planId]);
    expect(await store.chain('unknown')).toEqual([]);
  });

  it('put messages without a plan in their own chain', async () => {
    const store = new InMemoryProvenanceStore();
    const entry = await store.append(
      record('org.agent.ToolResult.v1', { invocationId: 'nobody', status: 'error' }),
    );
    expect(entry.plan_id).toBeNull();
    expect(await store.chain(null)).toHaveLength(1);
  });
});

describe('verifyChain detects tampering', () => {
  const problemsOf = (entries: ProvenanceEntry[]) =>
    verifyChain(entries).problems.map((problem) => problem.code);

  it('an edited payload', async () => {
    const { chain } = await tutorialChain();
    const edited = chain.map((entry) => ({ ...entry }));
    edited[1] = {
      ...(edited[1] as ProvenanceEntry),
      payload: { planId, thought: 't', conclusion: 'other' },
    };
    expect(problemsOf(edited)).toEqual(['sem_hash_mismatch']);
  });

  it('an edited payload with a recomputed sem_hash', async () => {
    const { chain } = await tutorialChain();
    const payload = { planId, thought: 't', conclusion: 'other' };
    const edited = chain.map((entry) => ({ ...entry }));
    edited[1] = { ...(edited[1] as ProvenanceEntry), payload, sem_hash: semanticHash(payload) };
    expect(problemsOf(edited)).toEqual(['entry_hash_mismatch', 'parent_mismatch']);
  });

  it('an edited field', async () => {
    const { chain } = await tutorialChain();
    const edited = chain.map((entry, index) =>
      index === 2 ? { ...entry, qom_passed: false } : entry,
    );
    expect(problemsOf(edited)).toEqual(['entry_hash_mismatch']);
  });

  it('a removed entry', async () => {
    const { chain } = await tutorialChain();
    const removed = chain.filter((_entry, index) => index !== 1);
    expect(problemsOf(removed)).toContain('parent_mismatch');
    expect(problemsOf(removed)).toContain('entry_hash_mismatch');
  });

  it('an inserted entry, even one renumbered to fit', async () => {
    const { chain } = await tutorialChain();
    const forged = linkEntry(chain[1], {
      ...record('ai.agent.Reasoning.v1', { planId, thought: 'x', conclusion: 'y' }),
      plan_id: planId,
    });
    const inserted = [
      chain[0],
      chain[1],
      forged,
      ...chain.slice(2).map((entry) => ({ ...entry, seq: entry.seq + 1 })),
    ] as ProvenanceEntry[];
    expect(problemsOf(inserted)).toContain('parent_mismatch');
    expect(problemsOf(inserted)).toContain('entry_hash_mismatch');
  });

  it('reordered entries', async () => {
    const { chain } = await tutorialChain();
    const reordered = [chain[0], chain[2], chain[1], chain[3]] as ProvenanceEntry[];
    expect(problemsOf(reordered)).toContain('sequence_mismatch');
    const renumbered = reordered.map((entry, index) => ({ ...entry, seq: index + 1 }));
    expect(problemsOf(renumbered)).toContain('entry_hash_mismatch');
  });

  it('a truncated tail, against a head kept elsewhere', async () => {
    const { chain } = await tutorialChain();
    const head = verifyChain(chain).head as string;
    expect(verifyChain(chain.slice(0, 3)).valid).toBe(true);
    expect(
      verifyChain(chain.slice(0, 3), { expectedHead: head }).problems.map(
        (problem) => problem.code,
      ),
    ).toEqual(['head_mismatch']);
  });

  it('a missing payload, unless payloads are not required', async () => {
    const { store } = await tutorialChain();
    const bare = await store.chain(planId);
    expect(problemsOf(bare)).toEqual(Array(4).fill('payload_missing'));
    expect(verifyChain(bare, { requirePayloads: false }).valid).toBe(true);
  });

  it('works with BLAKE3 hashes', async () => {
    const store = new InMemoryProvenanceStore({ algorithm: 'b3' });
    const payload = { planId, goal: 'g' };
    await store.append({
      ...record('org.agent.TaskPlan.v1', payload),
      sem_hash: semanticHash(payload, { algorithm: 'b3' }),
    });
    const chain = await store.chain(planId, { payloads: true });
    expect(chain[0]?.entry_hash).toMatch(/^b3:/);
    expect(verifyChain(chain).valid).toBe(true);
  });
});

describe('computeEntryHash', () => {
  // The general definition: the canonical form of the covered fields, hashed.
  const byDefinition = (
    entry: Omit<ProvenanceEntry, 'entry_hash' | 'payload'>,
    previous: string | null,
  ) =>
    hashCanonical(
      canonicalize({
        ...(entry.validated === false ? { validated: false } : {}),
        plan_id: entry.plan_id,
        seq: entry.seq,
        stype: entry.stype,
        method: entry.method,
        invocation_id: entry.invocation_id,
        sem_hash: entry.sem_hash,
        parent_hash: entry.parent_hash,
        timestamp: entry.timestamp,
        qom_profile: entry.qom_profile,
        qom_passed: entry.qom_passed,
        previous_entry_hash: previous,
      }),
    );
  const base = {
    plan_id: planId,
    seq: 3,
    stype: 'org.agent.TaskPlan.v1',
    method: 'agent.plan',
    invocation_id: null,
    sem_hash: 'sha256:ab',
    parent_hash: 'sha256:cd',
    timestamp: '2026-12-01T23:00:00.000Z',
    qom_profile: 'qom-basic',
    qom_passed: true,
  };

  it('writes exactly what canonicalize writes, for every shape an entry takes', () => {
    const variants: Array<Omit<ProvenanceEntry, 'entry_hash' | 'payload'>> = [
      base,
      { ...base, plan_id: null, parent_hash: null, method: null },
      { ...base, invocation_id: invocationId, qom_passed: false, validated: false },
      { ...base, stype: '  padded \u2003', method: 'quote " and \\ and \n', seq: 0 },
      { ...base, qom_profile: 'é \ud83d\ude00 \u0085' },
      // Types an edited store can hold: the general path judges them.
      { ...base, seq: 2.5 } as never,
      { ...base, stype: 7 } as never,
      { ...base, validated: true } as never,
    ];
    for (const entry of variants)
      for (const previous of [null, 'sha256:ef', ' spaced '])
        expect(computeEntryHash(entry, previous), JSON.stringify(entry)).toBe(
          byDefinition(entry, previous),
        );
  });
});
