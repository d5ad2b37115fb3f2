/**
 * The agent loop on the seed's question — 15 + (4 × (18 − 6)) / 3 — with no network and
 * no key:
 *   1. through the scripted provider (offline), `run()`;
 *   2. through the real OpenAI adapter against a scripted Chat Completions server on
 *      127.0.0.1 that assigns its own call ids (the model chains its calls with the
 *      `call_N` aliases), streamed, with tools that take 120 ms each — once with eager
 *      dispatch, once without — and a timeline drawn from the run's events.
 *
 * Run: pnpm --filter @mtpx/agent run example:calculator
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { type AgentEvent, createAgent } from '@mtpx/agent';
import { defineTool } from '@mtpx/executor';
import { calculatorToolkit } from '@mtpx/executor/toolkits';
import { createOpenAIProvider } from '@mtpx/providers/openai';
import {
  type ScriptedTurn,
  scriptedProvider,
  startScriptedOpenAIServer,
} from '@mtpx/providers/testing';
import { z } from 'zod';

const question = 'What is 15 + (4 × (18 − 6)) / 3?';

// The model's first answer: four calls in ONE response, each `$ref` naming an earlier call
// of the same response by its position (`call_1` = the first call).
const chain: ScriptedTurn = {
  toolCalls: [
    { id: 'call_Qm8kX2vLr4', name: 'calculator.subtract', arguments: { a: 18, b: 6 } },
    {
      id: 'call_Zr5cN1wQe8',
      name: 'calculator.multiply',
      arguments: { a: 4, b: { $ref: 'call_1' } },
    },
    {
      id: 'call_H2dT9yBn4R',
      name: 'calculator.divide',
      arguments: { a: { $ref: 'call_2' }, b: 3 },
    },
    { id: 'call_P6fJ3uLa0G', name: 'calculator.add', arguments: { a: 15, b: { $ref: 'call_3' } } },
  ],
};
const answer: ScriptedTurn = { text: '15 + (4 × (18 − 6)) / 3 = 31.' };

// 1. Offline: the scripted provider replays the two model answers.
const offline = createAgent({
  provider: scriptedProvider([chain, answer]),
  tools: [calculatorToolkit()],
});
const output = await offline.run(question);
console.log(`1. Offline, run(): "${output.finalText}"`);
console.log(`   ${output.rounds} model calls, stop reason ${output.stopReason}; the tool round:`);
for (const result of output.toolResults) {
  console.log(`     ${result.call_id}  ${result.tool_name.padEnd(20)} → ${result.output}`);
}

// 2. Streamed through the openai SDK, with tools that take a while, eager or not.
const slow = (name: string, operation: (a: number, b: number) => number) =>
  defineTool({
    name: `calculator.${name}`,
    description: `${name} two numbers (takes 120 ms).`,
    input_schema: z.object({ a: z.number(), b: z.number() }),
    execute: async ({ a, b }, { signal }) => {
      await sleep(120, undefined, { signal });
      return operation(a, b);
    },
  });
const slowTools = [
  slow('add', (a, b) => a + b),
  slow('subtract', (a, b) => a - b),
  slow('multiply', (a, b) => a * b),
  slow('divide', (a, b) => a / b),
];

function timeline(events: readonly AgentEvent[]): string[] {
  const lines: string[] = [];
  const start = new Map<string, number>();
  for (const event of events) {
    const at = `${Math.round(event.at)} ms`.padStart(8);
    if (event.type === 'round-started') lines.push(`${at}  round ${event.round}: model call`);
    if (event.type === 'tool-call-ready') {
      const args = JSON.stringify(event.toolCall.arguments);
      lines.push(`${at}    ready    ${event.toolCall.name}(${args})`);
    }
    if (event.type === 'call-started') start.set(event.callId, event.at);
    if (event.type === 'call-finished') {
      const from = Math.round(start.get(event.callId) ?? event.at);
      lines.push(
        `${at}    finished ${event.toolName} → ${event.result.output}  (ran ${from}–${Math.round(event.at)} ms)`,
      );
    }
    if (event.type === 'round-finished') {
      lines.push(`${at}  round ${event.round} done: model ${Math.round(event.modelMs)} ms`);
    }
    if (event.type === 'run-finished') lines.push(`${at}  answer: ${event.output.finalText}`);
  }
  return lines;
}

async function streamedRun(eagerDispatch: boolean): Promise<AgentEvent[]> {
  const server = await startScriptedOpenAIServer([chain, answer], {
    firstByteDelayMs: 150,
    chunkDelayMs: 15,
    chunkSize: 6,
  });
  try {
    const agent = createAgent({
      provider: createOpenAIProvider({
        model: 'scripted',
        apiKey: 'none',
        baseURL: `${server.url}/v1`,
      }),
      tools: slowTools,
      eagerDispatch,
    });
    const events: AgentEvent[] = [];
    for await (const event of agent.stream(question)) events.push(event);
    return events;
  } finally {
    await server.close();
  }
}

await streamedRun(true); // warm-up: the first HTTP request of a process is slower
for (const eagerDispatch of [true, false]) {
  const events = await streamedRun(eagerDispatch);
  console.log(`\n2. ${eagerDispatch ? 'Eager dispatch' : 'After the stream ends'} (stream()):`);
  for (const line of timeline(events)) console.log(line);
}
