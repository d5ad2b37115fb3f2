// An orchestrating process of the Responses resume test: runs (or resumes) a run whose model
// is OpenAI's Responses API (the parent's scripted OpenAI server, which checks each request
// as the API does), with the run journal and the session in PostgreSQL.
import { createAgent, type JournaledCall, type JournalWriteOptions } from '@mtpx/agent';
import { defineTool } from '@mtpx/executor';
import { createOpenAIResponsesProvider } from '@mtpx/providers/openai';
import pg from 'pg';
import { PostgresRunJournal } from '../postgres-run-journal';
import { PostgresSessionStore } from '../postgres-session-store';

const [connectionString, schema, mode, runId, baseURL, store, hang] = process.argv.slice(2) as [
  string,
  string,
  'run' | 'resume',
  string,
  string,
  'store' | 'no-store',
  string?,
];

class AnnouncingJournal extends PostgresRunJournal {
  override async recordCall(
    id: string,
    call: JournaledCall,
    options?: JournalWriteOptions,
  ): Promise<void> {
    await super.recordCall(id, call, options);
    console.log(`journaled ${call.call_id}`);
  }
}

const pool = new pg.Pool({ connectionString, max: 4 });
const sideEffect = async (callId: string) => {
  await pool.query(`INSERT INTO "${schema}".side_effects (run_id, call_id, process) VALUES ($1, $2, $3)`, [
    runId,
    callId,
    mode,
  ]);
};
const agent = createAgent({
  provider: createOpenAIResponsesProvider({
    model: 'gpt-5-mini',
    apiKey: 'sk-test',
    baseURL,
    maxRetries: 0,
    store: store === 'store',
    reasoningEffort: 'low',
  }),
  tools: [
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
      input_schema: { type: 'object', properties: { value: { type: 'number' } } },
      execute: async (args: { value: number }, context) => {
        if (hang === 'hang') {
          console.log(`hanging ${context.call.id}`);
          await new Promise(() => {});
        }
        await sideEffect(context.call.id);
        return args.value + 1;
      },
    }),
  ],
  journal: new AnnouncingJournal({ pool, schema }),
  sessionStore: new PostgresSessionStore({ pool, schema }),
  // A short lease: a killed orchestrator's run can be resumed two seconds later.
  // Five seconds, as the booking agent's: a starved child must still renew it in time.
  lease: { ttlMs: 5000 },
});
const output =
  mode === 'resume'
    ? await agent.resume(runId, { waitForLeaseMs: 30_000 })
    : await agent.run('Book it.', { runId, sessionId: `chat-${runId}`, userId: 'ada' });
console.log(`final ${JSON.stringify(output)}`);
await pool.end();
