// An orchestrating process: an agent with the scripted provider and a Postgres journal,
// whose tools write one row per execution to `side_effects`. With "hang", the gate call
// never finishes (the test kills this process there); with "resume", it resumes the run.
import { createAgent, type JournaledCall } from '@mtpx/agent';
import { defineTool } from '@mtpx/executor';
import type { ProviderRequest } from '@mtpx/protocol';
import { type ScriptedTurn, scriptedProvider } from '@mtpx/providers/testing';
import pg from 'pg';
import { PostgresRunJournal } from '../postgres-run-journal';
import { PostgresSessionStore } from '../postgres-session-store';

const [connectionString, schema, mode, runId, hang] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string?,
];
const pool = new pg.Pool({ connectionString, max: 4 });
const sideEffects = `"${schema}".side_effects`;

/** Three model turns: four calls (the gate needs call_a and call_b), one more call, the answer. */
function script(request: ProviderRequest): ScriptedTurn {
  const turns = request.messages.filter((message) => message.role === 'assistant').length;
  if (turns === 0) {
    return {
      toolCalls: [
        { id: 'call_a', name: 'ledger.add', arguments: { amount: 1 } },
        { id: 'call_b', name: 'ledger.add', arguments: { amount: 2 } },
        {
          id: 'call_c',
          name: 'gate.pass',
          arguments: { value: { $ref: 'call_a' }, after: { $ref: 'call_b' } },
        },
        { id: 'call_d', name: 'ledger.add', arguments: { amount: { $ref: 'call_c' } } },
      ],
    };
  }
  if (turns === 1) {
    return { toolCalls: [{ id: 'call_e', name: 'ledger.add', arguments: { amount: { $ref: 'call_d' } } }] };
  }
  const outputs = request.messages.filter((message) => message.role === 'tool');
  return { text: `Booked: ${outputs.map((message) => message.content).join(', ')}.` };
}

async function sideEffect(callId: string): Promise<void> {
  await pool.query(`INSERT INTO ${sideEffects} (run_id, call_id, process) VALUES ($1, $2, $3)`, [
    runId,
    callId,
    mode,
  ]);
}

const tools = [
  defineTool({
    name: 'ledger.add',
    description: 'Adds an amount to the ledger.',
    input_schema: { type: 'object', properties: { amount: { type: 'number' } } },
    execute: async (args: { amount: number }, context) => {
      await sideEffect(context.call.id);
      return args.amount * 10;
    },
  }),
  defineTool({
    name: 'gate.pass',
    description: 'Passes a value on.',
    input_schema: { type: 'object', properties: { value: { type: 'number' }, after: {} } },
    execute: async (args: { value: number }, context) => {
      if (hang === 'hang') {
        console.log(`hanging ${context.call.id}`);
        await new Promise(() => {});
      }
      await sideEffect(context.call.id);
      return args.value + 1;
    },
  }),
];

/** Tells the test each time a call's result is committed to the journal. */
class AnnouncingJournal extends PostgresRunJournal {
  override async recordCall(id: string, call: JournaledCall): Promise<void> {
    await super.recordCall(id, call);
    console.log(`journaled ${call.call_id}`);
  }
}

const journal = new AnnouncingJournal({ connectionString, schema });
const sessionStore = new PostgresSessionStore({ connectionString, schema });
const agent = createAgent({ provider: scriptedProvider(script), tools, journal, sessionStore });
const output =
  mode === 'resume'
    ? await agent.resume(runId)
    : await agent.run('Book it.', { runId, sessionId: `chat-${runId}`, userId: 'ada' });
console.log(`final ${JSON.stringify(output)}`);
await Promise.all([journal.close(), sessionStore.close(), pool.end()]);
