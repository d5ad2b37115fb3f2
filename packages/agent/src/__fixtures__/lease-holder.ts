/**
 * Run by run-lease.test.ts in a child Node process: starts a journaled run whose only call
 * never ends (a promise nothing will settle: no timer, no socket), prints `started`, and
 * lets the event loop run dry. The lease's renewal timer must not keep the process alive:
 * it exits by itself (printing `exit <code>`), the run still pending.
 */
import { defineTool } from '@mtpx/executor';
import { scriptedProvider } from '@mtpx/providers/testing';
import { createAgent, InMemoryRunJournal } from '../index';

const stuck = defineTool({
  name: 'stuck.forever',
  description: 'Never returns.',
  input_schema: { type: 'object', properties: {} },
  execute: () => {
    console.log('started');
    return new Promise<never>(() => {});
  },
});
const agent = createAgent({
  provider: scriptedProvider([{ toolCalls: [{ id: 'call_1', name: 'stuck.forever', arguments: {} }] }]),
  tools: [stuck],
  journal: new InMemoryRunJournal(),
  // Long enough that a process starved of CPU (a second suite beside it) never loses the
  // lease before it exits: the test is about the renewal timer not keeping it alive.
  lease: { ttlMs: 60_000 },
});
agent.run('Go.', { runId: 'run_idle' }).then(
  () => console.log('finished'),
  (error: unknown) => console.log(`failed ${(error as { code?: string }).code ?? String(error)}`),
);
process.on('exit', (code) => console.log(`exit ${code}`));
