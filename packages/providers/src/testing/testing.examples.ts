// Type-checked examples shown in the TSDoc of the testing helpers (scripts/docs/examples.mjs).
import type { Message, ToolSpec } from '@mtpx/protocol';
import { createOpenAIProvider } from '../openai/openai-provider';
import { startModelServer } from './model-server';
import { openAIChatCompletion } from './openai-wire';
import { scriptedProvider } from './scripted-provider';
import { startScriptedOpenAIServer } from './scripted-servers';

export async function startModelServerExample(
  completion: object,
  messages: Message[],
  tools: ToolSpec[],
) {
  //#region startModelServer
  const server = await startModelServer({ responses: [{ type: 'json', body: completion }] });
  const provider = createOpenAIProvider({
    model: 'gpt-4.1-mini',
    apiKey: 'test',
    baseURL: `${server.url}/v1`,
  });
  await provider.generate({ messages, tools });
  server.requests[0]?.body; // what the openai SDK sent
  await server.close();
  //#endregion startModelServer
}

export function openAIChatCompletionExample() {
  //#region openAIChatCompletion
  openAIChatCompletion({
    toolCalls: [{ id: 'call_1', name: 'calculator_add', arguments: { a: 1, b: 2 } }],
  });
  //#endregion openAIChatCompletion
}

export function scriptedProviderExample() {
  //#region scriptedProvider
  const provider = scriptedProvider([
    { toolCalls: [{ id: 'call_1', name: 'calculator.add', arguments: { a: 15, b: 27 } }] },
    { text: '15 + 27 = 42' },
  ]);
  //#endregion scriptedProvider
  return provider;
}

export async function startScriptedOpenAIServerExample() {
  //#region startScriptedOpenAIServer
  const server = await startScriptedOpenAIServer(
    [
      { toolCalls: [{ id: 'call_1', name: 'calculator.add', arguments: { a: 1, b: 2 } }] },
      { text: '3' },
    ],
    { firstByteDelayMs: 300, chunkDelayMs: 20 },
  );
  //#endregion startScriptedOpenAIServer
  return server;
}
