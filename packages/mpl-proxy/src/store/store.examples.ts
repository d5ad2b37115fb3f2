// Type-checked examples shown in the TSDoc of `sqlite-provenance-store.ts` and
// `postgres-provenance.ts` (scripts/docs/examples.mjs).
import { type ProvenanceEntryInput, verifyChain } from '@mtpx/mpl';
import { startProxy } from '../server';
import { openPostgresProvenanceStore } from './postgres-provenance';
import { SqliteProvenanceStore } from './sqlite-provenance-store';

export async function sqliteProvenanceStoreExample(record: ProvenanceEntryInput) {
  //#region SqliteProvenanceStore
  const store = SqliteProvenanceStore.open({ dataDir: '/var/lib/mpl' });
  const entry = await store.append(record);
  verifyChain(await store.chain(entry.plan_id, { payloads: true }));
  //#endregion SqliteProvenanceStore
}

export async function openPostgresProvenanceStoreExample() {
  //#region openPostgresProvenanceStore
  const store = await openPostgresProvenanceStore('postgres://mpl@db/mpl?schema=mpl');
  const proxy = await startProxy({ store });
  //#endregion openPostgresProvenanceStore
  await proxy.close();
}
