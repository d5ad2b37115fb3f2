// Type-checked examples shown in the TSDoc of `agent.ts` (scripts/docs/examples.mjs).
import { calculatorToolkit } from '@mtpx/executor/toolkits';
import type { Provider } from '@mtpx/protocol';
import { createAgent } from './agent';

export async function createAgentExample(provider: Provider) {
  //#region createAgent
  const agent = createAgent({ provider, tools: [calculatorToolkit()] });
  const output = await agent.run('What is 15 + (4 × (18 − 6)) / 3?');
  output.finalText; // "31"
  //#endregion createAgent
  return output;
}
