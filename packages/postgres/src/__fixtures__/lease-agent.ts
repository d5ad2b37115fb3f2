// The agent of the lease tests: a scripted chain of four slow steps, then the answer.
// Each step's body writes its activity to `body_log` (start, one row per slice of work,
// then end or aborted, stamped by the database's clock) and applies its effect once,
// keyed by the call's idempotency key, to `effects` — every application attempt also
// lands in `effect_attempts`. The body honours its AbortSignal between slices.
import { setTimeout as sleep } from 'node:timers/promises';
import { type Agent, createAgent, type RunJournal, type SessionStore } from '@mtpx/agent';
import { defineTool } from '@mtpx/executor';
import type { ProviderRequest } from '@mtpx/protocol';
import { type ScriptedTurn, scriptedProvider } from '@mtpx/providers/testing';
import type pg from 'pg';

/** The tables the lease tests read. */
export function leaseTables(schema: string): string[] {
  return [
    `CREATE TABLE "${schema}".body_log (run_id text NOT NULL, call_id text NOT NULL, process text NOT NULL, event text NOT NULL, at timestamptz NOT NULL DEFAULT clock_timestamp())`,
    `CREATE TABLE "${schema}".effects (idempotency_key text PRIMARY KEY, run_id text NOT NULL, call_id text NOT NULL, process text NOT NULL)`,
    `CREATE TABLE "${schema}".effect_attempts (run_id text NOT NULL, call_id text NOT NULL, process text NOT NULL)`,
  ];
}

/** Tool bodies still running in this process (an aborted run does not wait for them). */
const running = new Set<Promise<unknown>>();

/** Resolves once every tool body of this process has returned (so its last log row is written). */
export async function bodiesSettled(): Promise<void> {
  while (running.size > 0) await Promise.allSettled([...running]);
}

function script(request: ProviderRequest): ScriptedTurn {
  const turns = request.messages.filter((message) => message.role === 'assistant').length;
  if (turns === 0) {
    return {
      toolCalls: [
        { id: 'call_1', name: 'slow.step', arguments: { value: 1 } },
        { id: 'call_2', name: 'slow.step', arguments: { value: { $ref: 'call_1' } } },
        { id: 'call_3', name: 'slow.step', arguments: { value: { $ref: 'call_2' } } },
        { id: 'call_4', name: 'slow.step', arguments: { value: { $ref: 'call_3' } } },
      ],
    };
  }
  const outputs = request.messages.filter((message) => message.role === 'tool');
  return { text: `Steps: ${outputs.map((message) => message.content).join(', ')}.` };
}

export function leaseAgent(options: {
  pool: pg.Pool;
  schema: string;
  /** Written on every row: which process ran the body. */
  label: string;
  journal: RunJournal;
  sessionStore?: SessionStore;
  ttlMs: number;
  /** Slices of work per body (each ~`sliceMs`). */
  slices?: number;
  sliceMs?: number;
}): Agent {
  const { pool, schema, label } = options;
  const slices = options.slices ?? 10;
  const sliceMs = options.sliceMs ?? 50;
  const log = (runId: string, callId: string, event: string) =>
    pool.query(
      `INSERT INTO "${schema}".body_log (run_id, call_id, process, event) VALUES ($1, $2, $3, $4)`,
      [runId, callId, label, event],
    );
  const step = defineTool({
    name: 'slow.step',
    description: 'Doubles a value, slowly, with a side effect.',
    input_schema: { type: 'object', properties: { value: { type: 'number' } } },
    execute: (args: { value: number }, context) => {
      const body = work(args, context);
      running.add(body);
      void body.then(
        () => running.delete(body),
        () => running.delete(body),
      );
      return body;
    },
  });
  const work = async (
    args: { value: number },
    context: { runId?: string | undefined; call: { id: string }; signal: AbortSignal; idempotencyKey: string },
  ): Promise<number> => {
      const runId = context.runId as string;
      const callId = context.call.id;
      await log(runId, callId, 'start');
      console.log(`started ${callId}`);
      try {
        for (let slice = 0; slice < slices; slice++) {
          await sleep(sliceMs, undefined, { signal: context.signal });
          await log(runId, callId, 'slice');
        }
        if (context.signal.aborted) throw context.signal.reason;
        await pool.query(
          `INSERT INTO "${schema}".effect_attempts (run_id, call_id, process) VALUES ($1, $2, $3)`,
          [runId, callId, label],
        );
        await pool.query(
          `INSERT INTO "${schema}".effects (idempotency_key, run_id, call_id, process) VALUES ($1, $2, $3, $4)
           ON CONFLICT (idempotency_key) DO NOTHING`,
          [context.idempotencyKey, runId, callId, label],
        );
      } catch (error) {
        await log(runId, callId, 'aborted');
        console.log(`aborted ${callId}`);
        throw error;
      }
      await log(runId, callId, 'end');
      return args.value * 2;
  };
  return createAgent({
    provider: scriptedProvider(script),
    tools: [step],
    journal: options.journal,
    ...(options.sessionStore === undefined ? {} : { sessionStore: options.sessionStore }),
    lease: { ttlMs: options.ttlMs, holder: label },
  });
}
