import { describe, expect, it } from 'vitest';
import { deferred, eventLog } from '../__fixtures__/test-tools';
import { ExecutorError } from '../errors';
import { createExecutor } from '../executor';
import { defineTool } from '../tools/define-tool';

/**
 * A tool whose calls finish only when the test says (`finishAll`), counting how many run
 * at once. `started(n)` resolves once `n` calls have started in all.
 */
function countedTool(name: string) {
  let inFlight = 0;
  let maxInFlight = 0;
  let startedCount = 0;
  let gates: Array<() => void> = [];
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const tool = defineTool({
    name,
    description: 'Runs until the test lets it finish.',
    risk_level: 'read_only',
    input_schema: { type: 'object', properties: { n: { type: 'number' } } },
    execute: async ({ n }: { n?: number }) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      startedCount++;
      for (const waiter of waiters.filter((entry) => entry.count <= startedCount)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
      const gate = deferred();
      gates.push(gate.resolve);
      await gate.promise;
      inFlight--;
      return n ?? null;
    },
  });
  return {
    tool,
    get inFlight() {
      return inFlight;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    get startedCount() {
      return startedCount;
    },
    /** Resolves once `count` calls have started. */
    started(count: number): Promise<void> {
      if (startedCount >= count) return Promise.resolve();
      const wait = deferred();
      waiters.push({ count, resolve: wait.resolve });
      return wait.promise;
    },
    /** Lets every running call finish: one "tick" of work. */
    finishAll(): void {
      const open = gates;
      gates = [];
      for (const finish of open) finish();
    },
  };
}

const calls = (tool: string, count: number, prefix: string) =>
  Array.from({ length: count }, (_, index) => ({
    id: `${prefix}_${index}`,
    name: tool,
    arguments: { n: index },
  }));

describe('toolConcurrency', () => {
  it('a cap of 2 on a toolkit with 10 ready calls: at most 2 run at once, other tools run freely, 5 rounds of work', async () => {
    const browser = countedTool('browser.open');
    const other = countedTool('notes.read');
    const log = eventLog();
    const executor = createExecutor({
      tools: [browser.tool, other.tool],
      toolConcurrency: { 'browser.*': 2 },
    });
    const results = executor.executeToolCalls(
      [...calls('browser.open', 10, 'b'), ...calls('notes.read', 6, 'n')],
      { onEvent: log.onEvent },
    );
    // Every uncapped call starts at once, beside the first two capped ones.
    await other.started(6);
    await browser.started(2);
    expect(other.inFlight).toBe(6);
    expect(browser.inFlight).toBe(2);
    other.finishAll();
    // The makespan in units of work: each tick finishes what runs; a cap of 2 needs 10 / 2 = 5.
    let ticks = 0;
    while (browser.startedCount < 10 || browser.inFlight > 0) {
      expect(browser.inFlight).toBe(2);
      const next = browser.startedCount + 2;
      browser.finishAll();
      ticks++;
      if (next <= 10) await browser.started(next);
      else break;
    }
    expect(ticks).toBe(5);
    expect(browser.maxInFlight).toBe(2);
    const output = await results;
    expect(output.every((result) => result.success)).toBe(true);
    const throttled = log.events.filter((event) => event.type === 'call-throttled');
    expect(throttled).toHaveLength(8);
    expect(throttled[0]).toMatchObject({ callId: 'b_2', limit: 'browser.*', cap: 2 });
    // A throttled call starts in arrival order.
    const starts = log.order().filter((label) => label.startsWith('call-started:b_'));
    expect(starts).toEqual(Array.from({ length: 10 }, (_, index) => `call-started:b_${index}`));
  });

  it('is shared by every plan execution of the executor, and an exact cap applies beside its toolkit cap', async () => {
    const write = countedTool('db.write');
    const read = countedTool('db.read');
    const executor = createExecutor({
      tools: [write.tool, read.tool],
      toolConcurrency: { 'db.write': 1, 'db.*': 3 },
    });
    const first = executor.executeToolCalls(calls('db.write', 2, 'a'));
    const second = executor.executeToolCalls([
      ...calls('db.write', 2, 'b'),
      ...calls('db.read', 4, 'r'),
    ]);
    await write.started(1);
    await read.started(2);
    // db.write: one at a time across both executions; db.*: three of the toolkit at once.
    expect(write.inFlight).toBe(1);
    expect(read.inFlight).toBe(2);
    while (write.startedCount < 4 || read.startedCount < 4) {
      const written = write.startedCount;
      const readCount = read.startedCount;
      write.finishAll();
      read.finishAll();
      await write.started(Math.min(4, written + 1));
      await read.started(Math.min(4, readCount + 1));
      expect(write.inFlight).toBeLessThanOrEqual(1);
      expect(write.inFlight + read.inFlight).toBeLessThanOrEqual(3);
    }
    write.finishAll();
    read.finishAll();
    const all = [...(await first), ...(await second)];
    expect(all.every((result) => result.success)).toBe(true);
    expect(write.maxInFlight).toBe(1);
  });

  it('a cancelled execution gives its waiting calls up and frees its slots for the next', async () => {
    const browser = countedTool('browser.open');
    const executor = createExecutor({ tools: [browser.tool], toolConcurrency: { 'browser.*': 1 } });
    const controller = new AbortController();
    const cancelled = executor.executeToolCalls(calls('browser.open', 3, 'c'), {
      signal: controller.signal,
    });
    await browser.started(1);
    controller.abort(new Error('stop'));
    const results = await cancelled;
    expect(results.map((result) => result.error_code)).toEqual([
      'cancelled',
      'cancelled',
      'cancelled',
    ]);
    const later = executor.executeToolCalls(calls('browser.open', 1, 'd'));
    // The cancelled call's tool is still running (it ignores its signal): its slot frees when it returns.
    browser.finishAll();
    await browser.started(2);
    browser.finishAll();
    expect((await later)[0]?.success).toBe(true);
  });

  it.each([[{ 'browser.*': 0 }], [{ 'db.write': 1.5 }], [{ '*': 2 }], [{ 'a*b': 2 }]])(
    'refuses %j with invalid_option',
    (limits) => {
      let error: unknown;
      try {
        createExecutor({ tools: [], toolConcurrency: limits });
      } catch (caught) {
        error = caught;
      }
      expect(ExecutorError.isInstance(error) && error.code).toBe('invalid_option');
    },
  );
});
