// Type-checked examples shown in the TSDoc of `provider-error.ts` (scripts/docs/examples.mjs).
import type { Message, Provider, ToolSpec } from '@mtpx/protocol';
import { ProviderError } from './provider-error';

export async function providerErrorExample(
  provider: Provider,
  messages: Message[],
  tools: ToolSpec[],
) {
  //#region ProviderError
  try {
    await provider.generate({ messages, tools });
  } catch (error) {
    if (ProviderError.isInstance(error)) console.error(error.message); // "groq: 429 Rate limit reached…"
  }
  //#endregion ProviderError
}
