// Issue 27: per-tool and per-toolkit caps hold for remote tools whatever the number of
// workers: the cap is applied where calls are dispatched (the executor), so however many
// workers could take jobs, at most `cap` calls of the toolkit are in flight, while other
// tools' calls run freely.
import { createExecutor, defineTool } from '@mtpx/executor';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisOptions, testPrefix } from './__fixtures__/test-redis';
import { createRemoteTools } from './remote-tools';
import { startToolWorker, type ToolWorker } from './tool-worker';

const { prefix, cleanUp } = testPrefix('tool-concurrency');
const location = { connection: redisOptions, prefix, queue: 'caps' };

/** Counts calls in flight on the workers; each waits until the test lets running calls finish. */
const browser = {
  inFlight: 0,
  maxInFlight: 0,
  started: 0,
  gates: [] as Array<() => void>,
  waiters: [] as Array<{ count: number; resolve: () => void }>,
};
const notes = { started: 0, waiters: [] as Array<{ count: number; resolve: () => void }> };

function startedAtLeast(
  counter: { started: number; waiters: Array<{ count: number; resolve: () => void }> },
  count: number,
) {
  if (counter.started >= count) return Promise.resolve();
  return new Promise<void>((resolve) => counter.waiters.push({ count, resolve }));
}

function bump(counter: {
  started: number;
  waiters: Array<{ count: number; resolve: () => void }>;
}) {
  counter.started++;
  for (const waiter of counter.waiters.filter((entry) => entry.count <= counter.started)) {
    counter.waiters.splice(counter.waiters.indexOf(waiter), 1);
    waiter.resolve();
  }
}

const open = defineTool({
  name: 'browser.open',
  description: 'Opens a page in a pooled browser.',
  input_schema: { type: 'object', properties: { n: { type: 'number' } } },
  execute: async (args) => {
    browser.inFlight++;
    browser.maxInFlight = Math.max(browser.maxInFlight, browser.inFlight);
    bump(browser);
    await new Promise<void>((resolve) => browser.gates.push(resolve));
    browser.inFlight--;
    return args.n as number;
  },
});
const read = defineTool({
  name: 'notes.read',
  description: 'Reads a note.',
  input_schema: { type: 'object', properties: { n: { type: 'number' } } },
  execute: (args) => {
    bump(notes);
    return args.n as number;
  },
});

const remote = createRemoteTools({ ...location, tools: [open, read] });
let workers: ToolWorker[] = [];

beforeAll(async () => {
  workers = await Promise.all(
    [1, 2, 3].map(() => startToolWorker({ ...location, tools: [open, read], concurrency: 8 })),
  );
  await remote.ready();
});

afterAll(async () => {
  await remote.close();
  await Promise.all(workers.map((worker) => worker.close()));
  await cleanUp();
});

describe('toolConcurrency with remote tools', () => {
  it('three workers with 24 slots: never more than 2 browser calls at once, the notes run freely', async () => {
    const executor = createExecutor({
      tools: remote.tools,
      toolConcurrency: { 'browser.*': 2 },
    });
    const calls = [
      ...Array.from({ length: 10 }, (_, n) => ({
        id: `b_${n}`,
        name: 'browser.open',
        arguments: { n },
      })),
      ...Array.from({ length: 6 }, (_, n) => ({
        id: `n_${n}`,
        name: 'notes.read',
        arguments: { n },
      })),
    ];
    const results = executor.executeToolCalls(calls);
    await startedAtLeast(notes, 6);
    await startedAtLeast(browser, 2);
    expect(browser.inFlight).toBe(2);
    let rounds = 0;
    while (browser.started < 10) {
      const next = browser.started + 2;
      const running = browser.gates.splice(0);
      for (const finish of running) finish();
      rounds++;
      await startedAtLeast(browser, next);
      expect(browser.inFlight).toBeLessThanOrEqual(2);
    }
    for (const finish of browser.gates.splice(0)) finish();
    rounds++;
    const output = await results;
    expect(output.every((result) => result.success)).toBe(true);
    expect(browser.maxInFlight).toBe(2);
    expect(rounds).toBe(5);
  }, 60_000);
});
