// The agent of the resume test: a scripted provider and tools whose every execution
// writes one row to `side_effects`. With `hang`, the gate call never finishes (the test
// kills the process there).
import { type Agent, createAgent } from '@mtpx/agent';
import { defineTool } from '@mtpx/executor';
import type { ProviderRequest } from '@mtpx/protocol';
import { type ScriptedTurn, scriptedProvider } from '@mtpx/providers/testing';
import type pg from 'pg';
import type { PostgresRunJournal } from '../postgres-run-journal';
import type { PostgresSessionStore } from '../postgres-session-store';

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
    return {
      toolCalls: [{ id: 'call_e', name: 'ledger.add', arguments: { amount: { $ref: 'call_d' } } }],
    };
  }
  const outputs = request.messages.filter((message) => message.role === 'tool');
  return { text: `Booked: ${outputs.map((message) => message.content).join(', ')}.` };
}

export function bookingAgent(options: {
  pool: pg.Pool;
  schema: string;
  /** Written on each side-effect row: which process ran the call. */
  label: string;
  hang: boolean;
  journal: PostgresRunJournal;
  sessionStore: PostgresSessionStore;
}): Agent {
  const { pool, schema, label } = options;
  const sideEffect = async (runId: string | undefined, callId: string) => {
    await pool.query(
      `INSERT INTO "${schema}".side_effects (run_id, call_id, process) VALUES ($1, $2, $3)`,
      [runId, callId, label],
    );
  };
  const tools = [
    defineTool({
      name: 'ledger.add',
      description: 'Adds an amount to the ledger.',
      input_schema: { type: 'object', properties: { amount: { type: 'number' } } },
      execute: async (args: { amount: number }, context) => {
        await sideEffect(context.runId, context.call.id);
        return args.amount * 10;
      },
    }),
    defineTool({
      name: 'gate.pass',
      description: 'Passes a value on.',
      input_schema: { type: 'object', properties: { value: { type: 'number' }, after: {} } },
      execute: async (args: { value: number }, context) => {
        if (options.hang) {
          console.log(`hanging ${context.call.id}`);
          await new Promise(() => {});
        }
        await sideEffect(context.runId, context.call.id);
        return args.value + 1;
      },
    }),
  ];
  return createAgent({
    provider: scriptedProvider(script),
    tools,
    journal: options.journal,
    sessionStore: options.sessionStore,
    // A short lease: a killed orchestrator's run can be resumed five seconds later. Not
    // shorter: a child starved of CPU beside a second test suite lost a 2 s lease mid-run.
    lease: { ttlMs: 5000 },
  });
}
