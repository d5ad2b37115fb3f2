// Type-checked examples shown in the TSDoc of `from-ai-sdk-tools.ts` (scripts/docs/examples.mjs).
import { createExecutor } from '@mtpx/executor';
import { tool } from 'ai';
import { z } from 'zod';
import { fromAiSdkTools } from './from-ai-sdk-tools';

const getWeather = tool({
  description: 'The weather in a city.',
  inputSchema: z.object({ city: z.string() }),
  execute: async ({ city }) => ({ city, temperature: 21 }),
});
const sendEmail = tool({
  description: 'Send an email.',
  inputSchema: z.object({ to: z.string(), body: z.string() }),
  execute: async ({ to }) => `sent to ${to}`,
});

export async function fromAiSdkToolsExample() {
  //#region fromAiSdkTools
  const { tools, withoutExecute } = await fromAiSdkTools(
    { getWeather, sendEmail },
    { tools: { sendEmail: { risk_level: 'write' } } },
  );
  const executor = createExecutor({ tools });
  const [result] = await executor.executeToolCalls([
    { id: 'call_1', name: 'getWeather', arguments: { city: 'Paris' } },
  ]);
  result?.output; // { city: 'Paris', temperature: 21 }
  console.log(withoutExecute); // []
  //#endregion fromAiSdkTools
}
