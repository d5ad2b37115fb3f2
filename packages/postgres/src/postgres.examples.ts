// Type-checked examples shown in the TSDoc of this package's stores (scripts/docs/examples.mjs).
import { createAgent } from '@mtpx/agent';
import type { AnyTool } from '@mtpx/executor';
import type { ProvenanceEntryInput } from '@mtpx/mpl';
import type { Provider } from '@mtpx/protocol';
import { migratePostgres } from './migrate-postgres';
import { PostgresStoreError } from './postgres-error';
import { PostgresProvenanceStore } from './postgres-provenance-store';
import { PostgresRunJournal } from './postgres-run-journal';
import { PostgresSessionStore } from './postgres-session-store';

export async function migratePostgresExample() {
  //#region migratePostgres
  await migratePostgres({ connectionString: 'postgres://app@db/app', schema: 'mtpx' });
  //#endregion migratePostgres
}

export async function postgresStoreErrorExample(connectionString: string) {
  //#region PostgresStoreError
  try {
    await migratePostgres({ connectionString });
  } catch (error) {
    if (PostgresStoreError.isInstance(error)) console.error(error.code, error.message);
  }
  //#endregion PostgresStoreError
}

export async function postgresProvenanceStoreExample(record: ProvenanceEntryInput) {
  //#region PostgresProvenanceStore
  const store = new PostgresProvenanceStore({ connectionString: 'postgres://mpl@db/mpl' });
  const entry = await store.append(record); // durable once it resolves
  // a proxy on it: mpl serve --provenance 'postgres://mpl@db/mpl?schema=mpl'
  //#endregion PostgresProvenanceStore
  return entry;
}

export async function postgresRunJournalExample(provider: Provider, tools: AnyTool[]) {
  //#region PostgresRunJournal
  const journal = new PostgresRunJournal({ connectionString: 'postgres://app@db/app' });
  const sessionStore = new PostgresSessionStore({ connectionString: 'postgres://app@db/app' });
  const agent = createAgent({ provider, tools, journal, sessionStore });
  // …the process running run "run_42" died; in another one:
  const output = await agent.resume('run_42');
  //#endregion PostgresRunJournal
  return output;
}

export async function postgresSessionStoreExample(provider: Provider, tools: AnyTool[]) {
  //#region PostgresSessionStore
  const sessionStore = new PostgresSessionStore({ connectionString: 'postgres://app@db/app' });
  const agent = createAgent({ provider, tools, sessionStore });
  await agent.run('Remember: the meeting is at 3.', { sessionId: 'chat-1', userId: 'ada' });
  //#endregion PostgresSessionStore
}
