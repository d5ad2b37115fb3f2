// strictTools: the provider says so (the agent then offers `$ref`-accepting schemas), and
// the real @ai-sdk/openai package sends each function tool with `strict: true`.
import { createOpenAI } from '@ai-sdk/openai';
import { createAgent } from '@mtpx/agent';
import { calculatorToolkit } from '@mtpx/executor/toolkits';
import { afterEach, expect, it } from 'vitest';
import { recordedResponses, responsesWire } from '../replay/openai-responses-replay';
import type { Json } from '../replay/recorded';
import { startRecordedReplay } from '../replay/recorded-replay';
import type { ReplayServer } from '../replay/replay-server';
import { fromLanguageModel } from './from-language-model';

let server: ReplayServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

it.each([true, false])('strictTools: %s', async (strictTools) => {
  server = await startRecordedReplay(
    { wire: responsesWire, headers: { 'content-type': 'text/event-stream' } },
    [{ events: recordedResponses().at(-1) as Json[] }],
  );
  const provider = fromLanguageModel(
    createOpenAI({ apiKey: 'sk-test', baseURL: `${server.url}/v1` }).responses('gpt-5-mini'),
    { strictTools },
  );
  expect(provider.strictTools === true).toBe(strictTools);
  const output = await createAgent({ provider, tools: [calculatorToolkit()] }).run(
    'What is 2 + 3?',
  );
  expect(output.finalText).toBe('The final result is **570**.');
  const tools = (server.requests[0]?.body?.tools ?? []) as Json[];
  const add = tools.find((tool) => tool.name === 'calculator_add') as Json;
  expect(add.strict).toBe(strictTools ? true : undefined);
  // Strict or not, a value position of the schema the model sees accepts a `$ref` only
  // when the agent was told the API enforces schemas.
  expect(JSON.stringify(add.parameters).includes('$ref')).toBe(strictTools);
});
