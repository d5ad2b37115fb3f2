// Type-checked examples shown in the TSDoc of `openai-presets.ts` (scripts/docs/examples.mjs).
import { resolveOpenAICompatiblePreset } from './openai-presets';

export function resolveOpenAICompatiblePresetExample() {
  //#region resolveOpenAICompatiblePreset
  const { baseURL, apiKey } = resolveOpenAICompatiblePreset({ preset: 'groq' });
  // throws "Groq needs an API key: set the GROQ_API_KEY environment variable (or pass apiKey)." when unset
  //#endregion resolveOpenAICompatiblePreset
  return { baseURL, apiKey };
}
