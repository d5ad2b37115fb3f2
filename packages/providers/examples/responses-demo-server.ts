/**
 * A local OpenAI Responses API server for the calculator demo: one reasoning turn with the
 * demo's six calls (the `$ref` chain, a read and a write), then the answer. It checks each
 * follow-up request as the API does — a reasoning item without the call that followed it, a
 * call without its reasoning item, a `function_call_output` for an unknown `call_id`, a
 * reference to an unstored item are the API's own 400 / 404 answers — so the demo shows
 * its requests are ones OpenAI accepts. No network, no key.
 *
 * Run:  pnpm --filter @mtpx/providers run example:responses-server
 * Then: OPENAI_API_KEY=test pnpm demo -- --provider openai --base-url <the URL it prints>
 */
import { type ScriptedTurn, startScriptedOpenAIServer } from '@mtpx/providers/testing';

const toolRound: ScriptedTurn = {
  reasoning: 'The innermost step is 18 − 6; each later step uses the one before, so I chain them.',
  toolCalls: [
    { id: 'call_1', name: 'calculator.subtract', arguments: { a: 18, b: 6 } },
    { id: 'call_2', name: 'calculator.multiply', arguments: { a: 4, b: { $ref: 'call_1' } } },
    { id: 'call_3', name: 'calculator.divide', arguments: { a: { $ref: 'call_2' }, b: 3 } },
    { id: 'call_4', name: 'calculator.add', arguments: { a: 15, b: { $ref: 'call_3' } } },
    { id: 'call_5', name: 'file.read_file', arguments: { path: 'notes.txt' } },
    {
      id: 'call_6',
      name: 'file.write_file',
      arguments: { path: 'backup/notes.txt', content: { $ref: 'call_5' } },
    },
  ],
};
const answer: ScriptedTurn = {
  reasoning: 'All six results are in.',
  text: '15 + (4 × (18 − 6)) / 3 = 31.',
};

const port = Number(process.env.PORT ?? 0);
// Answers each run of the demo: the tool round, then the answer, again and again.
const server = await startScriptedOpenAIServer(
  Array.from({ length: 50 }, (_, index) => (index % 2 === 0 ? toolRound : answer)),
  { port, chunkDelayMs: 15, chunkSize: 8 },
);
console.log(`${server.url}/v1`);
process.on('SIGINT', () => void server.close().then(() => process.exit(0)));
process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
