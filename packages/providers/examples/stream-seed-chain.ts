/**
 * Streams the seed's four-call `$ref` chain from a scripted model, twice: through the
 * scripted provider, then through the real OpenAI adapter pointed at a scripted
 * Chat Completions server on 127.0.0.1. No network, no key. Each call is reported ready
 * while later calls are still streaming.
 *
 * Run: pnpm --filter @mtpx/providers run example:stream
 */
import type { Provider, ToolSpec } from '@mtpx/protocol';
import { createOpenAIProvider } from '@mtpx/providers/openai';
import {
  type ScriptedTurn,
  scriptedProvider,
  startScriptedOpenAIServer,
} from '@mtpx/providers/testing';

const tools: ToolSpec[] = ['add', 'subtract', 'multiply', 'divide'].map((operation) => ({
  name: `calculator.${operation}`,
  description: `${operation} two numbers`,
  input_schema: {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
  },
  tags: [],
  risk_level: 'read_only',
}));

const seedChain: ScriptedTurn = {
  toolCalls: [
    { id: 'call_1', name: 'calculator.subtract', arguments: { a: 18, b: 6 } },
    { id: 'call_2', name: 'calculator.multiply', arguments: { a: 4, b: { $ref: 'call_1' } } },
    { id: 'call_3', name: 'calculator.divide', arguments: { a: { $ref: 'call_2' }, b: 3 } },
    { id: 'call_4', name: 'calculator.add', arguments: { a: 15, b: { $ref: 'call_3' } } },
  ],
};

async function show(title: string, provider: Provider): Promise<void> {
  console.log(`\n${title}`);
  const started = performance.now();
  const stream = provider.stream({
    messages: [{ role: 'user', content: 'What is 15 + (4 × (18 − 6)) / 3?' }],
    tools,
  });
  for await (const event of stream) {
    const at = `${Math.round(performance.now() - started)} ms`.padStart(7);
    if (event.type === 'tool-call-ready') {
      const { id, name } = event.toolCall;
      console.log(`${at}  ready  ${id} ${name}(${JSON.stringify(event.toolCall.arguments)})`);
    }
    if (event.type === 'finish') {
      console.log(
        `${at}  finish ${event.turn.finishReason}, ${event.turn.message.tool_calls?.length} calls`,
      );
    }
  }
}

await show(
  'Scripted provider (20 ms between chunks):',
  scriptedProvider([seedChain], { latencyMs: 50, chunkDelayMs: 20, chunkSize: 12 }),
);

const server = await startScriptedOpenAIServer([seedChain], {
  firstByteDelayMs: 50,
  chunkDelayMs: 20,
  chunkSize: 12,
});
try {
  await show(
    'OpenAI adapter against a scripted Chat Completions server:',
    createOpenAIProvider({ model: 'scripted', apiKey: 'not-needed', baseURL: `${server.url}/v1` }),
  );
} finally {
  await server.close();
}
