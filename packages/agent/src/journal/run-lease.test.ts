import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { defineTool } from '@mtpx/executor';
import type { ProviderRequest } from '@mtpx/protocol';
import { type ScriptedTurn, scriptedProvider } from '@mtpx/providers/testing';
import { describe, expect, it } from 'vitest';
import {
  AgentError,
  createAgent,
  InMemoryRunJournal,
  type JournaledCall,
  type JournaledRun,
  RunLeaseError,
} from '../index';

/** A clock the test moves by hand. */
function manualClock(start = Date.parse('2026-01-01T00:00:00Z')) {
  let now = start;
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

const created = '2026-01-01T00:00:00.000Z';

function journaledRun(runId: string): JournaledRun {
  return {
    run_id: runId,
    status: 'running',
    input: 'Hi',
    settings: { streaming: false, eager_dispatch: 'safe', max_rounds: 10, tool_call_limit: null },
    messages: [{ role: 'user', content: 'Hi' }],
    rounds: 0,
    usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    tool_results: [],
    final_text: '',
    started_at: created,
    updated_at: created,
  };
}

function journaledCall(callId: string, output: number): JournaledCall {
  return {
    call_id: callId,
    arguments_hash: 'h',
    result: {
      call_id: callId,
      tool_name: 'ledger.add',
      output,
      success: true,
      cached: false,
      skipped: false,
      created_at: created,
    },
  };
}

describe('InMemoryRunJournal leases', () => {
  it('grants a free run, refuses a live lease naming its holder and expiry, and grants it again once expired with the next token', async () => {
    const clock = manualClock();
    const journal = new InMemoryRunJournal({ now: clock.now });
    expect(await journal.getLease('run_1')).toBeUndefined();
    const first = await journal.acquireLease('run_1', 'host-a:1', 2000);
    expect(first).toEqual({
      runId: 'run_1',
      holder: 'host-a:1',
      token: 1,
      expiresAt: '2026-01-01T00:00:02.000Z',
      expiresInMs: 2000,
    });

    clock.advance(1999);
    const refused = await journal.acquireLease('run_1', 'host-b:2', 2000).catch((error) => error);
    expect(RunLeaseError.isLeaseError(refused)).toBe(true);
    expect(AgentError.isInstance(refused)).toBe(true);
    expect(refused).toMatchObject({
      code: 'run_lease_held',
      runId: 'run_1',
      holder: 'host-a:1',
      expiresAt: '2026-01-01T00:00:02.000Z',
      expiresInMs: 1,
    });
    expect(refused.message).toContain('host-a:1');

    clock.advance(1);
    const second = await journal.acquireLease('run_1', 'host-b:2', 2000);
    expect(second).toMatchObject({ holder: 'host-b:2', token: 2 });
    // A retried acquisition by the same holder keeps its token.
    expect(await journal.acquireLease('run_1', 'host-b:2', 2000)).toMatchObject({ token: 2 });
  });

  it('renews only the current token, even past its expiry while nobody took the run', async () => {
    const clock = manualClock();
    const journal = new InMemoryRunJournal({ now: clock.now });
    const lease = await journal.acquireLease('run_1', 'a', 1000);
    clock.advance(900);
    expect(await journal.renewLease('run_1', lease.token, 1000)).toMatchObject({
      token: 1,
      expiresInMs: 1000,
    });
    clock.advance(5000); // expired, not taken
    expect(await journal.renewLease('run_1', lease.token, 1000)).toMatchObject({ token: 1 });

    clock.advance(1000);
    await journal.acquireLease('run_1', 'b', 1000);
    await expect(journal.renewLease('run_1', lease.token, 1000)).rejects.toMatchObject({
      code: 'run_lease_lost',
      holder: 'b',
    });
    await expect(journal.renewLease('run_other', 1, 1000)).rejects.toMatchObject({
      code: 'run_lease_lost',
    });
  });

  it('refuses every write with a stale token, accepts the current one, and leaves unfenced writes alone', async () => {
    const clock = manualClock();
    const journal = new InMemoryRunJournal({ now: clock.now });
    const a = await journal.acquireLease('run_1', 'a', 1000);
    await journal.save(journaledRun('run_1'), { leaseToken: a.token });
    await journal.recordCall('run_1', journaledCall('call_1', 1), { leaseToken: a.token });

    clock.advance(1000);
    const b = await journal.acquireLease('run_1', 'b', 1000);
    const stored = (await journal.get('run_1')) as JournaledRun;
    await expect(
      journal.save({ ...stored, rounds: 1 }, { leaseToken: a.token }),
    ).rejects.toMatchObject({ code: 'run_lease_lost', holder: 'b' });
    await expect(
      journal.recordCall('run_1', journaledCall('call_2', 2), { leaseToken: a.token }),
    ).rejects.toMatchObject({ code: 'run_lease_lost' });
    expect((await journal.calls('run_1')).map((call) => call.call_id)).toEqual(['call_1']);
    expect(await journal.get('run_1')).toMatchObject({ version: 1, rounds: 0 });

    await journal.save({ ...stored, rounds: 1 }, { leaseToken: b.token });
    await journal.recordCall('run_1', journaledCall('call_2', 2), { leaseToken: b.token });
    expect((await journal.calls('run_1')).map((call) => call.call_id)).toEqual([
      'call_1',
      'call_2',
    ]);
    // A write with no token is not fenced (as before leases).
    await journal.recordCall('run_1', journaledCall('call_3', 3));
    // A token for a run that never had a lease is stale too.
    await expect(journal.save(journaledRun('run_2'), { leaseToken: 1 })).rejects.toMatchObject({
      code: 'run_lease_lost',
    });
  });

  it('releases only with the current token, so the next holder need not wait; delete forgets the lease', async () => {
    const clock = manualClock();
    const journal = new InMemoryRunJournal({ now: clock.now });
    const a = await journal.acquireLease('run_1', 'a', 60_000);
    await journal.releaseLease('run_1', a.token + 1);
    await expect(journal.acquireLease('run_1', 'b', 1000)).rejects.toMatchObject({
      code: 'run_lease_held',
    });
    await journal.releaseLease('run_1', a.token);
    expect(await journal.acquireLease('run_1', 'b', 1000)).toMatchObject({ token: 2 });
    await journal.save(journaledRun('run_1'));
    expect(await journal.delete('run_1')).toBe(true);
    expect(await journal.getLease('run_1')).toBeUndefined();
  });
});

/** One model turn: a call that waits (honouring its signal), then one that needs it; then the answer. */
function script(request: ProviderRequest): ScriptedTurn {
  const turns = request.messages.filter((message) => message.role === 'assistant').length;
  if (turns === 0) {
    return {
      toolCalls: [
        { id: 'call_a', name: 'slow.step', arguments: { value: 1 } },
        { id: 'call_b', name: 'slow.step', arguments: { value: { $ref: 'call_a' } } },
      ],
    };
  }
  return { text: 'Done.' };
}

describe('an agent run holds its lease', () => {
  it('a run that loses its lease to another process aborts its in-flight call, starts no more, and fails with run_lease_lost; the run stays resumable', async () => {
    let skipped = 0;
    const journal = new InMemoryRunJournal({ now: () => Date.now() + skipped });
    const started: string[] = [];
    let aborted: unknown;
    let entered: () => void = () => {};
    const inFlight = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const hanging = defineTool({
      name: 'slow.step',
      description: 'Waits until aborted.',
      input_schema: { type: 'object', properties: { value: { type: 'number' } } },
      execute: async (_args: { value: number }, context) => {
        started.push(context.call.id);
        entered();
        await new Promise((_resolve, reject) =>
          context.signal.addEventListener(
            'abort',
            () => {
              aborted = context.signal.reason;
              reject(context.signal.reason);
            },
            { once: true },
          ),
        );
        return 0;
      },
    });
    // A short lease: renewed every 333 ms of real time.
    const first = createAgent({
      provider: scriptedProvider(script),
      tools: [hanging],
      journal,
      lease: { ttlMs: 1000, holder: 'first' },
    });
    const firstRun = first.run('Go.', { runId: 'run_lost' }).catch((error: unknown) => error);
    await inFlight;

    // The first process "paused" past its lease (by the journal's clock); another takes the run.
    skipped += 10_000;
    const taken = await journal.acquireLease('run_lost', 'second', 60_000);
    expect(taken.token).toBe(2);

    const error = await firstRun;
    expect(error).toMatchObject({ code: 'run_lease_lost', runId: 'run_lost', holder: 'second' });
    expect(RunLeaseError.isLeaseError(aborted)).toBe(true);
    expect(started).toEqual(['call_a']);
    // Nothing of the first process after the takeover reached the journal.
    expect(await journal.calls('run_lost')).toEqual([]);
    expect(await journal.get('run_lost')).toMatchObject({ status: 'running', version: 2 });
  });

  it('a process starved past its lease (a call that blocks the event loop) starts no dependent call: the run stops with run_lease_lost and is left resumable', async () => {
    const journal = new InMemoryRunJournal();
    const started: string[] = [];
    const blocking = defineTool({
      name: 'slow.step',
      description: 'Holds the event loop longer than the lease lasts.',
      input_schema: { type: 'object', properties: { value: { type: 'number' } } },
      execute: (args: { value: number }, context) => {
        started.push(context.call.id);
        const until = performance.now() + 600;
        while (performance.now() < until) {
          // busy: no timer, no renewal runs meanwhile
        }
        return args.value;
      },
    });
    const agent = createAgent({
      provider: scriptedProvider(script),
      tools: [blocking],
      journal,
      lease: { ttlMs: 300 },
    });
    const error = await agent.run('Go.', { runId: 'run_starved' }).catch((failure) => failure);
    expect(error).toMatchObject({ code: 'run_lease_lost', runId: 'run_starved' });
    expect(error.message).toContain('could not renew its lease');
    expect(started).toEqual(['call_a']);
    // Nobody took the run: its lease was released, and it is still running in the journal.
    expect((await journal.getLease('run_starved'))?.expiresInMs).toBeLessThanOrEqual(0);
    expect(await journal.get('run_starved')).toMatchObject({ status: 'running' });
  });

  it('takes the lease of a journaled run under the agent’s holder name and releases it when the run ends', async () => {
    const journal = new InMemoryRunJournal();
    const echo = defineTool({
      name: 'slow.step',
      description: 'Echoes.',
      input_schema: { type: 'object', properties: { value: { type: 'number' } } },
      execute: (args: { value: number }) => args.value,
    });
    const agent = createAgent({
      provider: scriptedProvider(script),
      tools: [echo],
      journal,
      lease: { holder: 'worker-7' },
    });
    const output = await agent.run('Go.', { runId: 'run_ok' });
    expect(output.final_text).toBe('Done.');
    const lease = await journal.getLease('run_ok');
    expect(lease).toMatchObject({ token: 1 });
    expect(lease?.holder).toMatch(/^worker-7:/);
    // Released at the end: expired, and the next holder gets it at once.
    expect(lease?.expiresInMs).toBeLessThanOrEqual(0);
    expect(await journal.acquireLease('run_ok', 'next', 1000)).toMatchObject({ token: 2 });
  });

  it('refuses lease options that cannot work', () => {
    expect(() =>
      createAgent({
        provider: scriptedProvider([]),
        tools: [],
        journal: new InMemoryRunJournal(),
        lease: { ttlMs: 0 },
      }),
    ).toThrow(/ttlMs/);
  });
});

describe('the lease keeps no process alive', () => {
  it('a process whose only work is a stuck call of a leased run exits by itself (the renewal timer is unref’d)', {
    timeout: 60_000,
  }, async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(import.meta.dirname, '../__fixtures__/lease-holder.ts')],
      { cwd: join(import.meta.dirname, '../..'), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    let errors = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      errors += chunk;
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(errors).toBe('');
    expect(code).toBe(0);
    expect(output.trim().split('\n')).toEqual(['started', 'exit 0']);
  });
});
