import { defineTool } from '@mtpx/executor';
import type { Provider, ProviderRequest } from '@mtpx/protocol';
import { type ScriptedTurn, scriptedProvider } from '@mtpx/providers/testing';
import { describe, expect, it } from 'vitest';
import {
  type AgentEvent,
  createAgent,
  InMemoryRunJournal,
  InMemorySessionStore,
  type JournaledCall,
  type JournalWriteOptions,
  type RunLeaseError,
  type RunOutput,
} from '../index';

/** Two model turns: four calls (the third waits at a gate, the fourth needs it), then the answer. */
function script(request: ProviderRequest): ScriptedTurn {
  const turns = request.messages.filter((message) => message.role === 'assistant').length;
  if (turns === 0) {
    return {
      toolCalls: [
        { id: 'call_a', name: 'ledger.add', arguments: { amount: 1 } },
        { id: 'call_b', name: 'ledger.add', arguments: { amount: 2 } },
        { id: 'call_c', name: 'gate.pass', arguments: { value: { $ref: 'call_a' } } },
        { id: 'call_d', name: 'ledger.add', arguments: { amount: { $ref: 'call_c' } } },
      ],
    };
  }
  const outputs = request.messages.filter((message) => message.role === 'tool');
  return { text: `Booked: ${outputs.map((message) => message.content).join(', ')}.` };
}

/** Tools that count their side effects by call id; `gate.pass` waits for `gate` to open. */
function tools(sideEffects: Map<string, number>, gate: Promise<void>) {
  return [
    defineTool({
      name: 'ledger.add',
      description: 'Adds an amount to the ledger.',
      input_schema: { type: 'object', properties: { amount: { type: 'number' } } },
      execute: async (args: { amount: number }, context) => {
        sideEffects.set(context.call.id, (sideEffects.get(context.call.id) ?? 0) + 1);
        return args.amount * 10;
      },
    }),
    defineTool({
      name: 'gate.pass',
      description: 'Passes a value once the gate opens.',
      input_schema: { type: 'object', properties: { value: { type: 'number' } } },
      execute: async (args: { value: number }, context) => {
        const { signal } = context;
        await Promise.race([
          gate,
          new Promise((_resolve, reject) =>
            signal.addEventListener('abort', () => reject(signal.reason), { once: true }),
          ),
        ]);
        sideEffects.set(context.call.id, (sideEffects.get(context.call.id) ?? 0) + 1);
        return args.value + 1;
      },
    }),
  ];
}

/** The journal's clock: real time, plus what a test skips ahead (a lease "expires" at once). */
function skippableClock() {
  let skipped = 0;
  return {
    now: () => Date.now() + skipped,
    /** Moves the journal's clock past every lease an agent took with the default 30 s. */
    pastLeases: () => {
      skipped += 60_000;
    },
  };
}

/** A journal that tells when a call's result is written. */
class WatchedJournal extends InMemoryRunJournal {
  readonly recorded: string[] = [];
  #waiters: Array<() => void> = [];

  override async recordCall(
    runId: string,
    call: JournaledCall,
    options?: JournalWriteOptions,
  ): Promise<void> {
    await super.recordCall(runId, call, options);
    this.recorded.push(call.call_id);
    for (const wake of this.#waiters.splice(0)) wake();
  }

  /** Resolves once these calls' results are in the journal. */
  async recordedAll(callIds: string[]): Promise<void> {
    while (!callIds.every((id) => this.recorded.includes(id))) {
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    }
  }
}

const open = Promise.resolve();

describe('run journal and resume', () => {
  it('a run abandoned mid-round is resumed by another agent: finished calls are not run again, the answer is the same', async () => {
    const uninterruptedEffects = new Map<string, number>();
    const uninterrupted = await createAgent({
      provider: scriptedProvider(script),
      tools: tools(uninterruptedEffects, open),
      journal: new InMemoryRunJournal(),
    }).run('Book it.', { runId: 'run_reference' });

    const clock = skippableClock();
    const journal = new WatchedJournal({ now: clock.now });
    const sessionStore = new InMemorySessionStore();
    const firstEffects = new Map<string, number>();
    const abandoned = new AbortController();
    const first = createAgent({
      provider: scriptedProvider(script),
      tools: tools(firstEffects, new Promise(() => {})),
      journal,
      sessionStore,
    });
    const firstRun = first.run('Book it.', {
      runId: 'run_1',
      sessionId: 'chat',
      userId: 'ada',
      signal: abandoned.signal,
    });
    // The orchestrator "dies" here: call_a and call_b are journaled, call_c hangs at its gate.
    await journal.recordedAll(['call_a', 'call_b']);

    const secondEffects = new Map<string, number>();
    const events: AgentEvent[] = [];
    const second = createAgent({
      provider: scriptedProvider(script),
      tools: tools(secondEffects, open),
      journal,
      sessionStore,
    });
    // The first process still holds the run's lease: resuming is refused, naming it.
    const held = await second.resume('run_1').catch((error: unknown) => error);
    expect(held).toMatchObject({ code: 'run_lease_held', runId: 'run_1' });
    expect((held as RunLeaseError).holder).toMatch(/:/);
    expect(Date.parse((held as RunLeaseError).expiresAt as string)).toBeGreaterThan(clock.now());
    // …until it expires (the first process is gone: it renews no more).
    clock.pastLeases();
    const resumed = await second.resume('run_1', { onEvent: (event) => events.push(event) });

    expect(Object.fromEntries(firstEffects)).toEqual({ call_a: 1, call_b: 1 });
    expect(Object.fromEntries(secondEffects)).toEqual({ call_c: 1, call_d: 1 });
    expect(resumed.final_text).toBe(uninterrupted.final_text);
    expect(resumed.final_text).toBe('Booked: 10, 20, 11, 110.');
    expect(resumed.tool_results.map((result) => result.output)).toEqual(
      uninterrupted.tool_results.map((result) => result.output),
    );
    expect(resumed.rounds).toBe(2);
    expect(events[0]).toMatchObject({ type: 'run-started', runId: 'run_1', resumed: true });
    expect(
      events.filter((event) => event.type === 'call-started').map((event) => event.callId),
    ).toEqual(['call_c', 'call_d']);

    const session = await sessionStore.get('chat', { userId: 'ada' });
    expect(session?.runs.map((run) => [run.run_id, run.status])).toEqual([['run_1', 'finished']]);
    expect(session?.messages).toEqual(resumed.messages);
    expect(await journal.get('run_1')).toMatchObject({ status: 'finished', stop_reason: 'final' });

    // Resuming an ended run gives its output again, and runs nothing.
    const again = await second.resume('run_1');
    expect(again).toEqual(resumed);
    expect(Object.fromEntries(secondEffects)).toEqual({ call_c: 1, call_d: 1 });

    // The abandoned process wakes up: it may not overwrite the run another process finished.
    abandoned.abort();
    await expect(firstRun).rejects.toMatchObject({ code: 'run_lease_lost' });
    expect(await journal.get('run_1')).toMatchObject({ status: 'finished' });
  });

  it('resumes a run that died after its last model turn without asking the model again', async () => {
    const journal = new InMemoryRunJournal();
    const provider = scriptedProvider([{ text: 'Hello.' }]);
    const agent = createAgent({ provider, tools: [], journal });
    const output: RunOutput = await agent.run('Hi', { runId: 'run_2' });
    const stored = await journal.get('run_2');
    // As if the process died right after the turn was journaled.
    await journal.save({
      ...(stored as NonNullable<typeof stored>),
      status: 'running',
      messages: output.messages,
    });
    const resumed = await createAgent({
      provider: scriptedProvider([]),
      tools: [],
      journal,
    }).resume('run_2');
    expect(resumed).toMatchObject({ final_text: 'Hello.', stop_reason: 'final', rounds: 1 });
  });

  it('refuses a reused run id, an unknown run, and resume without a journal', async () => {
    const journal = new InMemoryRunJournal();
    const agent = createAgent({
      provider: scriptedProvider([{ text: 'One.' }]),
      tools: [],
      journal,
    });
    await agent.run('Hi', { runId: 'run_3' });
    await expect(agent.run('Hi', { runId: 'run_3' })).rejects.toMatchObject({
      code: 'run_journal_conflict',
    });
    await expect(agent.resume('run_unknown')).rejects.toMatchObject({ code: 'run_not_resumable' });
    const plain = createAgent({ provider: scriptedProvider([]), tools: [] });
    await expect(plain.resume('run_3')).rejects.toMatchObject({ code: 'invalid_option' });
  });

  it('does not resume a failed run', async () => {
    const journal = new InMemoryRunJournal();
    const agent = createAgent({ provider: scriptedProvider([]), tools: [], journal });
    await expect(agent.run('Hi', { runId: 'run_4' })).rejects.toMatchObject({
      code: 'script_exhausted',
    });
    expect(await journal.get('run_4')).toMatchObject({ status: 'failed' });
    await expect(agent.resume('run_4')).rejects.toMatchObject({ code: 'run_not_resumable' });
  });
});

describe('run journal and resume, streamed', () => {
  it('a streamed run that died before its model turn was complete asks the model again, and calls it repeats are not run again', async () => {
    const clock = skippableClock();
    const journal = new WatchedJournal({ now: clock.now });
    const firstEffects = new Map<string, number>();
    const scripted = scriptedProvider(script);
    // The first process dies while the model is still writing: the stream never finishes.
    const dying: Provider = {
      ...scripted,
      generate: scripted.generate,
      async *stream(request) {
        for await (const event of scripted.stream(request)) {
          if (event.type === 'finish') {
            const { signal } = request;
            await new Promise((_resolve, reject) =>
              signal?.addEventListener('abort', () => reject(signal.reason), { once: true }),
            );
          }
          yield event;
        }
      },
    };
    const abandoned = new AbortController();
    const firstRun = createAgent({
      provider: dying,
      tools: tools(firstEffects, new Promise(() => {})),
      journal,
    })
      .stream('Book it.', { runId: 'run_s', signal: abandoned.signal })
      .result.catch((error: unknown) => error);
    await journal.recordedAll(['call_a', 'call_b']);
    expect(await journal.get('run_s')).toMatchObject({ rounds: 0, status: 'running' });

    const secondEffects = new Map<string, number>();
    clock.pastLeases();
    const resumed = await createAgent({
      provider: scriptedProvider(script),
      tools: tools(secondEffects, open),
      journal,
    }).resume('run_s');
    expect(resumed.final_text).toBe('Booked: 10, 20, 11, 110.');
    expect(Object.fromEntries(firstEffects)).toEqual({ call_a: 1, call_b: 1 });
    expect(Object.fromEntries(secondEffects)).toEqual({ call_c: 1, call_d: 1 });
    abandoned.abort();
    expect(await firstRun).toMatchObject({ code: 'run_lease_lost' });
  });
});

describe('a journaled agent honours the executor’s limits (regression: the journal wrapper dropped them)', () => {
  /** Arguments of 5 MiB: past the default 4 MiB, within the 8 MiB this executor allows. */
  const big = 'x'.repeat(5 * 1024 * 1024);
  const echo = defineTool({
    name: 'text.length',
    description: 'The length of a text.',
    input_schema: { type: 'object', properties: { text: { type: 'string' } } },
    execute: (args: { text: string }) => args.text.length,
  });

  it.each(['run', 'stream'] as const)(
    '%s(): a call within the executor’s limits runs, with a journal as without',
    async (mode) => {
      const agent = createAgent({
        provider: scriptedProvider([
          { toolCalls: [{ id: 'call_big', name: 'text.length', arguments: { text: big } }] },
          { text: 'Done.' },
        ]),
        tools: [echo],
        limits: { maxArgumentBytes: 8 * 1024 * 1024 },
        journal: new InMemoryRunJournal(),
      });
      const output =
        mode === 'run' ? await agent.run('Measure.') : await agent.stream('Measure.').result;
      expect(output.tool_results[0]).toMatchObject({
        call_id: 'call_big',
        success: true,
        output: big.length,
      });
    },
  );
});
