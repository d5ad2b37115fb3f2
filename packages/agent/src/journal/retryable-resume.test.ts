import { defineTool, ToolExecutionError } from '@mtpx/executor';
import type { ProviderRequest } from '@mtpx/protocol';
import { type ScriptedTurn, scriptedProvider } from '@mtpx/providers/testing';
import { describe, expect, it } from 'vitest';
import {
  createAgent,
  InMemoryRunJournal,
  type JournaledCall,
  type JournalWriteOptions,
  JsonFileRunJournal,
  type RunJournal,
  replacesJournaledResult,
} from '../index';

/** One model turn of three calls (the third waits at a gate), then the answer. */
function script(request: ProviderRequest): ScriptedTurn {
  if (!request.messages.some((message) => message.role === 'assistant')) {
    return {
      toolCalls: [
        { id: 'call_a', name: 'ledger.add', arguments: { amount: 1 } },
        { id: 'call_b', name: 'remote.fetch', arguments: { key: 'b' } },
        { id: 'call_c', name: 'gate.pass', arguments: { value: 3 } },
      ],
    };
  }
  const outputs = request.messages.filter((message) => message.role === 'tool');
  return { text: outputs.map((message) => message.content).join(' | ') };
}

/** How a remote call fails when its job was lost with Redis's data (`@mtpx/bullmq`'s shape). */
class LostJobError extends Error {
  readonly code = 'job_lost';
  get isRetryable(): boolean {
    return true;
  }
}

function tools(effects: Map<string, number>, options: { lose: boolean; gate: Promise<void> }) {
  const count = (id: string) => effects.set(id, (effects.get(id) ?? 0) + 1);
  return [
    defineTool({
      name: 'ledger.add',
      description: 'Adds an amount to the ledger.',
      input_schema: { type: 'object', properties: { amount: { type: 'number' } } },
      execute: async (args: { amount: number }, context) => {
        count(context.call.id);
        return args.amount * 10;
      },
    }),
    defineTool({
      name: 'remote.fetch',
      description: 'Fetches a value on a remote worker.',
      input_schema: { type: 'object', properties: { key: { type: 'string' } } },
      execute: async (args: { key: string }, context) => {
        count(context.call.id);
        if (options.lose) throw new LostJobError('The job was lost with Redis.');
        return `fetched ${args.key}`;
      },
    }),
    defineTool({
      name: 'gate.pass',
      description: 'Passes a value once the gate opens.',
      input_schema: { type: 'object', properties: { value: { type: 'number' } } },
      execute: async (args: { value: number }, context) => {
        await Promise.race([
          options.gate,
          new Promise((_resolve, reject) =>
            context.signal.addEventListener('abort', () => reject(context.signal.reason), {
              once: true,
            }),
          ),
        ]);
        count(context.call.id);
        return args.value;
      },
    }),
  ];
}

/** Tells when given calls' results are in the journal. */
function watched(journal: RunJournal): RunJournal & { recorded(ids: string[]): Promise<void> } {
  const seen = new Set<string>();
  const wake: Array<() => void> = [];
  const recordCall = journal.recordCall.bind(journal);
  return Object.assign(journal, {
    async recordCall(runId: string, call: JournaledCall, options?: JournalWriteOptions) {
      await recordCall(runId, call, options);
      seen.add(call.call_id);
      for (const resolve of wake.splice(0)) resolve();
    },
    async recorded(ids: string[]) {
      while (!ids.every((id) => seen.has(id)))
        await new Promise<void>((resolve) => wake.push(resolve));
    },
  });
}

const journals: Array<[string, () => Promise<RunJournal>]> = [
  ['in memory', async () => new InMemoryRunJournal({ now: () => clock.now() })],
  [
    'JSON files',
    async () => {
      const { mkdtemp } = await import('node:fs/promises');
      const { tmpdir } = await import('node:os');
      const { join } = await import('node:path');
      const directory = await mkdtemp(join(tmpdir(), 'mtpx-retryable-'));
      return new JsonFileRunJournal({ directory, now: () => clock.now() });
    },
  ],
];

/** The journals' clock: real time, plus a skip past every lease (the first process died). */
const clock = { skipped: 0, now: () => Date.now() + clock.skipped };

describe.each(journals)('a retryable failure is run again on resume (%s)', (_name, make) => {
  it('a call whose remote job was lost runs again; a finished call and a plain failure do not', async () => {
    const journal = watched(await make());
    const firstEffects = new Map<string, number>();
    const abandoned = new AbortController();
    const first = createAgent({
      provider: scriptedProvider(script),
      tools: tools(firstEffects, { lose: true, gate: new Promise(() => {}) }),
      journal,
    });
    const firstRun = first.run('Go.', { runId: 'run_lost', signal: abandoned.signal });
    await journal.recorded(['call_a', 'call_b']);
    const lost = (await journal.calls('run_lost')).find((call) => call.call_id === 'call_b');
    expect(lost?.result).toMatchObject({ success: false, retryable: true });
    expect(lost?.result.error).toMatch(/lost with Redis/);

    // The first process is gone: its lease expires, and another resumes the run.
    clock.skipped += 60_000;
    const secondEffects = new Map<string, number>();
    const second = createAgent({
      provider: scriptedProvider(script),
      tools: tools(secondEffects, { lose: false, gate: Promise.resolve() }),
      journal,
    });
    const resumed = await second.resume('run_lost');
    expect(Object.fromEntries(firstEffects)).toEqual({ call_a: 1, call_b: 1 });
    expect(Object.fromEntries(secondEffects)).toEqual({ call_b: 1, call_c: 1 });
    expect(resumed.final_text).toBe('10 | fetched b | 3');
    // The journal now holds the success: a later resume replays it.
    const stored = (await journal.calls('run_lost')).find((call) => call.call_id === 'call_b');
    expect(stored?.result).toMatchObject({ success: true, output: 'fetched b' });
    expect(stored?.result.retryable).toBeUndefined();
    abandoned.abort();
    await expect(firstRun).rejects.toMatchObject({ code: 'run_lease_lost' });
  });
});

describe('replacesJournaledResult', () => {
  const result = {
    call_id: 'call_1',
    tool_name: 'remote.fetch',
    output: null,
    success: false,
    cached: false,
    skipped: false,
    created_at: '2026-12-03T10:00:00.000Z',
  };
  it('replaces only a retryable failure', () => {
    expect(replacesJournaledResult({ ...result, retryable: true })).toBe(true);
    expect(replacesJournaledResult(result)).toBe(false);
    expect(replacesJournaledResult({ ...result, success: true, output: 1 })).toBe(false);
  });
  it('ToolExecutionError marks its result retryable when it says so', async () => {
    const { createExecutor } = await import('@mtpx/executor');
    const { planFromToolCalls } = await import('@mtpx/protocol');
    const executor = createExecutor({
      tools: [
        defineTool({
          name: 'flaky',
          description: 'Rate limited.',
          input_schema: { type: 'object' },
          execute: async (args: { retry?: boolean }) => {
            throw new ToolExecutionError({
              message: 'rate limited',
              retryable: args.retry === true,
            });
          },
        }),
      ],
    });
    const results = await executor.execute(
      planFromToolCalls([
        { id: 'a', name: 'flaky', arguments: { retry: true } },
        { id: 'b', name: 'flaky', arguments: { retry: false } },
      ]),
    );
    expect(results.map((entry) => entry.retryable)).toEqual([true, undefined]);
  });
});
