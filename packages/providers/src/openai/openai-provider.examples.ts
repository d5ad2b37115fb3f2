// Type-checked examples shown in the TSDoc of `openai-provider.ts` (scripts/docs/examples.mjs).
import { createOpenAIProvider } from './openai-provider';

export async function createOpenAIProviderExample() {
  //#region createOpenAIProvider
  const provider = createOpenAIProvider({ preset: 'groq', model: 'llama-3.3-70b-versatile' });
  const turn = await provider.generate({ messages: [{ role: 'user', content: 'Hi' }], tools: [] });
  //#endregion createOpenAIProvider
  return turn;
}
