// Type-checked examples shown in the TSDoc of `json-file-run-journal.ts` (scripts/docs/examples.mjs).
import type { AnyTool } from '@mtpx/executor';
import type { Provider } from '@mtpx/protocol';
import { createAgent, JsonFileRunJournal } from '../index';

export async function jsonFileRunJournalExample(provider: Provider, tools: AnyTool[]) {
  //#region JsonFileRunJournal
  const journal = new JsonFileRunJournal({ directory: '.runs' });
  const agent = createAgent({ provider, tools, journal });
  await agent.resume('run_1');
  //#endregion JsonFileRunJournal
  return agent;
}
