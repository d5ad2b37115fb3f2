import { randomUUID } from 'node:crypto';
import { type ProvenanceEntryInput, semanticHash, verifyChain } from '@mtpx/mpl';
import type { JsonObject } from '@mtpx/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSchema, type TestSchema } from './__fixtures__/test-database';
import { PostgresProvenanceStore } from './index';

let database: TestSchema;
let stores: PostgresProvenanceStore[];

beforeAll(async () => {
  database = await createTestSchema();
  // Two stores on separate pools: two proxies' worth of writers on the same tables.
  stores = [1, 2].map(
    () =>
      new PostgresProvenanceStore({
        connectionString: database.connectionString,
        schema: database.schema,
        maxConnections: 4,
      }),
  );
});
afterAll(async () => {
  await Promise.all(stores.map((store) => store.close()));
  await database.drop();
});

function record(planId: string | null | undefined, payload: JsonObject): ProvenanceEntryInput {
  return {
    ...(planId === undefined ? {} : { plan_id: planId }),
    stype: 'ai.agent.Reasoning.v1',
    sem_hash: semanticHash(payload),
    payload,
    qom_profile: 'qom-basic',
    qom_passed: true,
    ...(typeof payload.invocationId === 'string' ? { invocation_id: payload.invocationId } : {}),
  };
}

describe('PostgresProvenanceStore', () => {
  it('links 300 concurrent appends from two stores into one chain that verifies', async () => {
    const planId = randomUUID();
    const entries = await Promise.all(
      Array.from({ length: 300 }, (_unused, index) =>
        (stores[index % 2] as PostgresProvenanceStore).append(
          record(planId, { planId, thought: `Thought ${index}` }),
        ),
      ),
    );
    expect(entries.map((entry) => entry.seq).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 300 }, (_unused, index) => index + 1),
    );
    const chain = await (stores[0] as PostgresProvenanceStore).chain(planId, { payloads: true });
    expect(chain).toHaveLength(300);
    expect(verifyChain(chain)).toMatchObject({ valid: true, problems: [] });
    for (const entry of entries) {
      expect(chain[entry.seq - 1]?.entry_hash).toBe(entry.entry_hash);
    }
    expect(await (stores[1] as PostgresProvenanceStore).planIds()).toContain(planId);
    const withoutPayloads = await (stores[1] as PostgresProvenanceStore).chain(planId);
    expect(withoutPayloads[0]).not.toHaveProperty('payload');
  });

  it('puts a result in the plan of the invocation it answers, and planless messages in their own chain', async () => {
    const store = stores[0] as PostgresProvenanceStore;
    const planId = randomUUID();
    const invocationId = randomUUID();
    await store.append(record(planId, { planId, invocationId, step: 'invoke' }));
    const answer = await store.append(record(undefined, { invocationId, step: 'result' }));
    expect(answer).toMatchObject({ plan_id: planId, seq: 2 });
    const planless = await store.append(record(null, { note: `alone ${planId}` }));
    expect(planless.plan_id).toBeNull();
    expect(verifyChain(await store.chain(null, { payloads: true })).valid).toBe(true);
    expect(verifyChain(await store.chain(planId, { payloads: true })).valid).toBe(true);
    expect(await store.chain(randomUUID())).toEqual([]);
  });

  it('keeps an unvalidated (transparent-mode) entry marked, and its chain verifies', async () => {
    const store = stores[1] as PostgresProvenanceStore;
    const planId = randomUUID();
    await store.append(record(planId, { planId, step: 'checked' }));
    const unchecked = await store.append({
      ...record(planId, { planId, step: 'unknown SType' }),
      stype: 'org.unknown.Thing.v1',
      validated: false,
    });
    expect(unchecked.validated).toBe(false);
    const chain = await store.chain(planId, { payloads: true });
    expect(chain[0]).not.toHaveProperty('validated');
    expect(chain[1]).toMatchObject({ validated: false, entry_hash: unchecked.entry_hash });
    expect(verifyChain(chain)).toMatchObject({ valid: true, problems: [] });
  });

  it('reports an edited entry through verifyChain', async () => {
    const store = stores[0] as PostgresProvenanceStore;
    const planId = randomUUID();
    for (const index of [1, 2, 3]) await store.append(record(planId, { planId, index }));
    await database.pool.query(
      `UPDATE "${database.schema}".mtpx_provenance_entries SET payload = '{"planId":"x"}' WHERE plan_key = $1 AND seq = 2`,
      [planId],
    );
    const verdict = verifyChain(await store.chain(planId, { payloads: true }));
    expect(verdict.valid).toBe(false);
    expect(verdict.problems.map((problem) => problem.code)).toContain('sem_hash_mismatch');
  });
});
