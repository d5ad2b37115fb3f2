// Type-checked examples shown in the TSDoc of `responses-provider.ts` (scripts/docs/examples.mjs).
import { createOpenAIResponsesProvider } from './responses-provider';

export async function createOpenAIResponsesProviderExample() {
  //#region createOpenAIResponsesProvider
  const provider = createOpenAIResponsesProvider({
    model: 'gpt-5-mini',
    reasoningEffort: 'low',
    reasoningSummary: 'auto',
    store: false, // zero data retention: reasoning comes back encrypted and is sent back whole
  });
  const turn = await provider.generate({ messages: [{ role: 'user', content: 'Hi' }], tools: [] });
  //#endregion createOpenAIResponsesProvider
  return turn;
}
