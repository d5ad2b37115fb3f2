// Type-checked examples shown in the TSDoc of `provenance.ts` and `provenance-memory.ts`
// (scripts/docs/examples.mjs).
import type { JsonValue } from '@mtpx/protocol';
import { semanticHash } from '../hashing/semantic-hash';
import { type ProvenanceStore, verifyChain } from './provenance';
import { InMemoryProvenanceStore } from './provenance-memory';

export async function inMemoryProvenanceStoreExample(payload: JsonValue) {
  //#region InMemoryProvenanceStore
  const store = new InMemoryProvenanceStore();
  await store.append({
    plan_id: 'p1',
    stype: 'org.agent.TaskPlan.v1',
    sem_hash: semanticHash(payload),
    payload,
    qom_profile: 'qom-basic',
    qom_passed: true,
  });
  //#endregion InMemoryProvenanceStore
}

export async function verifyChainExample(store: ProvenanceStore, planId: string) {
  //#region verifyChain
  const chain = await store.chain(planId, { payloads: true });
  const verdict = verifyChain(chain);
  if (!verdict.valid) console.log(verdict.problems);
  //#endregion verifyChain
}
