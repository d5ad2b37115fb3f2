// Type-checked examples shown in the TSDoc of `create-provider.ts` (scripts/docs/examples.mjs).
import { createProvider, describeProvider, isProviderName, providerNames } from './create-provider';

export function describeProviderExample() {
  //#region describeProvider
  for (const name of providerNames) console.log(name, describeProvider(name).apiKeyVariable);
  //#endregion describeProvider
}

export async function createProviderExample() {
  //#region createProvider
  const [name = 'groq', model = 'llama-3.3-70b-versatile'] = process.argv.slice(2);
  if (!isProviderName(name)) throw new Error(`Unknown provider: ${name}`);
  const provider = await createProvider({ provider: name, model }); // reads GROQ_API_KEY
  //#endregion createProvider
  return provider;
}
