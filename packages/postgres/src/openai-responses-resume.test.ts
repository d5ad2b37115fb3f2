// OpenAI's Responses API across processes (issue 25): a run whose first model turn carried a
// reasoning item is killed mid-round, then resumed in a new process from the PostgreSQL run
// journal; the next request must carry that reasoning item exactly (the scripted OpenAI
// server answers the API's own 400 / 404 otherwise), with store true and false.
import type { RunOutput } from '@mtpx/agent';
import { safeParseJson } from '@mtpx/protocol';
import {
  type ModelServer,
  type ScriptedTurn,
  startScriptedOpenAIServer,
} from '@mtpx/providers/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScript } from './__fixtures__/child-process';
import { createTestSchema, type TestSchema } from './__fixtures__/test-database';
import { migratePostgres, PostgresSessionStore } from './index';

type Json = Record<string, unknown>;
let database: TestSchema;
let server: ModelServer | undefined;

beforeAll(async () => {
  database = await createTestSchema();
  await migratePostgres({ pool: database.pool, schema: database.schema });
  await database.pool.query(
    `CREATE TABLE "${database.schema}".side_effects (run_id text NOT NULL, call_id text NOT NULL, process text NOT NULL)`,
  );
});
afterAll(async () => {
  await server?.close();
  await database.drop();
});

const turns: ScriptedTurn[] = [
  {
    reasoning: 'Add to the ledger, then pass it through the gate.',
    toolCalls: [
      { id: 'call_a', name: 'ledger.add', arguments: { amount: 1 } },
      { id: 'call_c', name: 'gate.pass', arguments: { value: { $ref: 'call_a' } } },
    ],
  },
  {
    reasoning: 'Now book the total.',
    toolCalls: [{ id: 'call_e', name: 'ledger.add', arguments: { amount: { $ref: 'call_c' } } }],
  },
  { text: 'Booked: 10, 11, 110.' },
];

async function finalOutput(child: ReturnType<typeof startScript>): Promise<RunOutput> {
  const match = await child.line(/^final (.*)$/);
  const parsed = safeParseJson(match[1] as string);
  if (!parsed.ok) throw parsed.error;
  return parsed.value as unknown as RunOutput;
}

describe('a Responses run resumed in a new process from PostgreSQL', () => {
  for (const store of ['store', 'no-store'] as const) {
    it(`${store}: killed mid-round, resumed elsewhere; its reasoning item goes back as the API requires`, {
      timeout: 120_000,
    }, async () => {
      await server?.close();
      const scripted = await startScriptedOpenAIServer(turns);
      server = scripted;
      const runId = `run_${store.replace('-', '_')}`;
      const orchestrator = (mode: 'run' | 'resume', hang?: 'hang') =>
        startScript('responses-orchestrator-child.ts', [
          database.connectionString,
          database.schema,
          mode,
          runId,
          `${scripted.url}/v1`,
          store,
          ...(hang ? [hang] : []),
        ]);
      const doomed = orchestrator('run', 'hang');
      await Promise.all([doomed.line(/^journaled call_a$/), doomed.line(/^hanging call_c$/)]);
      doomed.child.kill('SIGKILL');
      expect(await doomed.exited).toMatchObject({ signal: 'SIGKILL' });

      const resumed = await finalOutput(orchestrator('resume'));
      expect(resumed.finalText).toBe('Booked: 10, 11, 110.');
      const effects = await database.pool.query(
        `SELECT process || ':' || call_id AS effect FROM "${database.schema}".side_effects WHERE run_id = $1 ORDER BY call_id`,
        [runId],
      );
      expect(effects.rows.map((row: { effect: string }) => row.effect)).toEqual([
        'run:call_a',
        'resume:call_c',
        'resume:call_e',
      ]);
      // The first request after the resume carries the first turn's reasoning item.
      expect(scripted.requests).toHaveLength(3);
      const input = ((scripted.requests[1]?.body ?? {}) as Json).input as Json[];
      const reasoning = input.find(
        (item) => item.type === (store === 'store' ? 'item_reference' : 'reasoning'),
      );
      expect(reasoning?.id).toBe('rs_scripted_1');
      if (store === 'no-store') expect(String(reasoning?.encrypted_content)).toMatch(/^gAAAAB/);
      // The session in PostgreSQL keeps the Responses items as the API sent them.
      const session = await new PostgresSessionStore({
        pool: database.pool,
        schema: database.schema,
      }).get(`chat-${runId}`, { userId: 'ada' });
      expect(session?.messages).toEqual(resumed.messages);
      const first = session?.messages.find((message) => message.role === 'assistant');
      expect(
        first?.role === 'assistant' ? first.provider_parts?.map((part) => part.type) : [],
      ).toEqual(['reasoning', 'function_call', 'function_call', 'response']);
    });
  }
});
