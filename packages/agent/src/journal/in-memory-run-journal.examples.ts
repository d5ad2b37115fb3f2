// Type-checked examples shown in the TSDoc of `in-memory-run-journal.ts` (scripts/docs/examples.mjs).
import type { AnyTool } from '@mtpx/executor';
import type { Provider } from '@mtpx/protocol';
import { createAgent, InMemoryRunJournal } from '../index';

export async function inMemoryRunJournalExample(provider: Provider, tools: AnyTool[]) {
  //#region InMemoryRunJournal
  const journal = new InMemoryRunJournal();
  const agent = createAgent({ provider, tools, journal });
  await agent.resume('run_1');
  //#endregion InMemoryRunJournal
  return agent;
}
