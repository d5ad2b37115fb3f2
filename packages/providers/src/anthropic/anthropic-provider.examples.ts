// Type-checked examples shown in the TSDoc of `anthropic-provider.ts` (scripts/docs/examples.mjs).
import type { Message, ToolSpec } from '@mtpx/protocol';
import { createAnthropicProvider } from './anthropic-provider';

export async function createAnthropicProviderExample(messages: Message[], tools: ToolSpec[]) {
  //#region createAnthropicProvider
  const provider = createAnthropicProvider({ model: 'claude-sonnet-4-6' });
  for await (const event of provider.stream({ messages, tools })) console.log(event.type);
  //#endregion createAnthropicProvider
}
