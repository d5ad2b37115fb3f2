import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExecutionPlanInput, ToolCallInput } from '@mtpx/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allOf, eventLog, gatedTool, waitForEvent } from '../__fixtures__/test-tools';
import { ExecutorError } from '../errors';
import { createExecutor } from '../executor';
import { calculatorToolkit, fileToolkit } from '../toolkits';

// The two native responses of the seed document (001_…txt), arguments already parsed.
const seedParallelCalls: ToolCallInput[] = [
  { id: 'call_1', name: 'calculator.add', arguments: { a: 15, b: 27 } },
  { id: 'call_2', name: 'file.read_file', arguments: { path: 'notes.txt' } },
];
const seedChainCalls: ToolCallInput[] = [
  { id: 'call_1', name: 'calculator.subtract', arguments: { a: 18, b: 6 } },
  { id: 'call_2', name: 'calculator.multiply', arguments: { a: 4, b: { $ref: 'call_1' } } },
  { id: 'call_3', name: 'calculator.divide', arguments: { a: { $ref: 'call_2' }, b: 3 } },
  { id: 'call_4', name: 'calculator.add', arguments: { a: 15, b: { $ref: 'call_3' } } },
];

let workspace: string;
beforeAll(async () => {
  workspace = await mkdtemp(join(tmpdir(), 'mtpx-scheduling-'));
  await writeFile(join(workspace, 'notes.txt'), 'Buy milk.\n');
});
afterAll(() => rm(workspace, { recursive: true, force: true }));

describe('the seed', () => {
  it('runs the 4-call $ref chain to 12, 48, 16, 31, each call after the one it needs', async () => {
    const log = eventLog();
    const executor = createExecutor({ tools: [calculatorToolkit()] });
    const results = await executor.executeToolCalls(seedChainCalls, { onEvent: log.onEvent });
    expect(results.map((result) => result.output)).toEqual([12, 48, 16, 31]);
    expect(results.every((result) => result.success)).toBe(true);
    for (const [before, after] of [
      ['call_1', 'call_2'],
      ['call_2', 'call_3'],
      ['call_3', 'call_4'],
    ]) {
      expect(log.indexOf(`call-finished:${before}`)).toBeLessThan(
        log.indexOf(`call-started:${after}`),
      );
    }
  });

  it('gives the same outputs for the chain as a derived plan, in both scheduling modes', async () => {
    const { planFromToolCalls } = await import('@mtpx/protocol');
    const plan = planFromToolCalls(seedChainCalls);
    for (const scheduling of ['eager', 'batches'] as const) {
      const executor = createExecutor({ tools: [calculatorToolkit()], scheduling });
      const results = await executor.execute(plan);
      expect(results.map((result) => [result.call_id, result.output])).toEqual([
        ['call_1', 12],
        ['call_2', 48],
        ['call_3', 16],
        ['call_4', 31],
      ]);
    }
  });

  it('starts both calls of the 2-call response before either finishes', async () => {
    const log = eventLog();
    const executor = createExecutor({
      tools: [calculatorToolkit(), fileToolkit({ root: workspace })],
    });
    const results = await executor.executeToolCalls(seedParallelCalls, { onEvent: log.onEvent });
    expect(results.map((result) => result.output)).toEqual([42, 'Buy milk.\n']);
    const firstFinish = log.order().findIndex((label) => label.startsWith('call-finished'));
    expect(log.indexOf('call-started:call_1')).toBeLessThan(firstFinish);
    expect(log.indexOf('call-started:call_2')).toBeLessThan(firstFinish);
  });

  it('keeps two independent calls in flight together until each is released', async () => {
    const gated = gatedTool();
    const log = eventLog();
    const bothStarted = waitForEvent(
      () => log.order().filter((label) => label.startsWith('call-started')).length === 2,
    );
    const executor = createExecutor({ tools: [gated.tool] });
    const running = executor.executeToolCalls(
      [
        { id: 'call_1', name: 'test.wait', arguments: { key: 'one' } },
        { id: 'call_2', name: 'test.wait', arguments: { key: 'two' } },
      ],
      { onEvent: allOf(log.onEvent, bothStarted.handler) },
    );
    await bothStarted.promise;
    expect(log.order()).toEqual(['plan-started', 'call-started:call_1', 'call-started:call_2']);
    gated.release('two');
    gated.release('one');
    expect((await running).map((result) => result.output)).toEqual(['one', 'two']);
  });
});

describe('eager scheduling versus batches', () => {
  // A is slow and independent, B fast, C depends only on B.
  const plan: ExecutionPlanInput = {
    batches: [
      {
        mode: 'parallel',
        calls: [
          { id: 'A', name: 'test.wait', arguments: { key: 'A' } },
          { id: 'B', name: 'test.wait', arguments: { key: 'B' } },
        ],
      },
      {
        mode: 'parallel',
        calls: [{ id: 'C', name: 'test.wait', arguments: { key: 'C', value: { $ref: 'B' } } }],
      },
    ],
  };

  it('eager: C starts as soon as B is done, while A is still running', async () => {
    const gated = gatedTool();
    const log = eventLog();
    const executor = createExecutor({ tools: [gated.tool] });
    const release = (event: { type: string; callId?: string }) => {
      if (event.type === 'call-started' && event.callId === 'A') gated.release('B');
      if (event.type === 'call-started' && event.callId === 'C') gated.release('C');
      if (event.type === 'call-finished' && event.callId === 'C') gated.release('A'); // only now
    };
    const results = await executor.execute(plan, { onEvent: allOf(log.onEvent, release) });
    expect(results.map((result) => result.output)).toEqual(['A', 'B', 'B']);
    expect(log.indexOf('call-started:C')).toBeLessThan(log.indexOf('call-finished:A'));
    expect(log.order()).toEqual([
      'plan-started',
      'call-started:A',
      'call-started:B',
      'call-finished:B',
      'call-started:C',
      'call-finished:C',
      'call-finished:A',
      'plan-finished',
    ]);
  });

  it('batches: C waits for the whole first batch, A included', async () => {
    const gated = gatedTool();
    const log = eventLog();
    const executor = createExecutor({ tools: [gated.tool], scheduling: 'batches' });
    const release = (event: { type: string; callId?: string }) => {
      if (event.type === 'call-started' && event.callId === 'A') gated.release('B');
      if (event.type === 'call-finished' && event.callId === 'B') gated.release('A');
      if (event.type === 'call-started' && event.callId === 'C') gated.release('C');
    };
    const results = await executor.execute(plan, { onEvent: allOf(log.onEvent, release) });
    expect(results.map((result) => result.output)).toEqual(['A', 'B', 'B']);
    expect(log.indexOf('call-finished:A')).toBeLessThan(log.indexOf('call-started:C'));
  });

  it('the per-plan option overrides the executor default', async () => {
    const gated = gatedTool();
    const log = eventLog();
    const executor = createExecutor({ tools: [gated.tool] });
    const release = (event: { type: string; callId?: string }) => {
      if (event.type === 'call-started' && event.callId === 'A') gated.release('B');
      if (event.type === 'call-finished' && event.callId === 'B') gated.release('A');
      if (event.type === 'call-started' && event.callId === 'C') gated.release('C');
    };
    await executor.execute(plan, { scheduling: 'batches', onEvent: allOf(log.onEvent, release) });
    expect(log.indexOf('call-finished:A')).toBeLessThan(log.indexOf('call-started:C'));
  });

  it('batches: a batch waits for every earlier batch even when its own calls failed early', async () => {
    const gated = gatedTool();
    const log = eventLog();
    const executor = createExecutor({ tools: [gated.tool], scheduling: 'batches' });
    const release = (event: { type: string; callId?: string }) => {
      if (event.type === 'call-skipped' && event.callId === 'broken') gated.release('slow');
      if (event.type === 'call-started' && event.callId === 'last') gated.release('last');
    };
    await executor.execute(
      {
        batches: [
          { calls: [{ id: 'slow', name: 'test.wait', arguments: { key: 'slow' } }] },
          { calls: [{ id: 'broken', name: '', arguments: {} }] },
          { calls: [{ id: 'last', name: 'test.wait', arguments: { key: 'last' } }] },
        ],
      },
      { onEvent: allOf(log.onEvent, release) },
    );
    expect(log.indexOf('call-finished:slow')).toBeLessThan(log.indexOf('call-started:last'));
  });

  it('runs a sequential batch in listed order in both modes, without failing later calls for an earlier failure', async () => {
    for (const scheduling of ['eager', 'batches'] as const) {
      const log = eventLog();
      const executor = createExecutor({ tools: [calculatorToolkit()], scheduling, dedupe: false });
      const results = await executor.execute(
        {
          batches: [
            {
              mode: 'sequential',
              calls: [
                { id: 's1', name: 'calculator.add', arguments: { a: 1, b: 1 } },
                { id: 's2', name: 'calculator.divide', arguments: { a: 1, b: 0 } },
                { id: 's3', name: 'calculator.add', arguments: { a: 2, b: 2 } },
              ],
            },
          ],
        },
        { onEvent: log.onEvent },
      );
      expect(results.map((result) => result.output)).toEqual([2, null, 4]);
      expect(results[2]?.success).toBe(true);
      expect(log.indexOf('call-finished:s1')).toBeLessThan(log.indexOf('call-started:s2'));
      expect(log.indexOf('call-finished:s2')).toBeLessThan(log.indexOf('call-started:s3'));
    }
  });
});

describe('concurrency', () => {
  it('caps the calls in flight and starts the next as one finishes', async () => {
    const gated = gatedTool();
    let inFlight = 0;
    let most = 0;
    const track = (event: { type: string; callId?: string }) => {
      if (event.type === 'call-started') {
        inFlight++;
        most = Math.max(most, inFlight);
        gated.release(event.callId as string);
      }
      if (event.type === 'call-finished') inFlight--;
    };
    const executor = createExecutor({ tools: [gated.tool], concurrency: 2 });
    const calls = ['a', 'b', 'c', 'd', 'e'].map((key) => ({
      id: key,
      name: 'test.wait',
      arguments: { key },
    }));
    const results = await executor.executeToolCalls(calls, { onEvent: track });
    expect(results.map((result) => result.output)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(most).toBe(2);
  });

  it('rejects a concurrency that is not a positive integer', () => {
    expect(() => createExecutor({ tools: [], concurrency: 0 })).toThrow(ExecutorError);
    expect(() => createExecutor({ tools: [], timeoutMs: -1 })).toThrow(/timeoutMs/);
    expect(() => createExecutor({ tools: [], scheduling: 'levels' as 'eager' })).toThrow(
      /scheduling/,
    );
  });
});

describe('runs fed call by call (streaming)', () => {
  it('starts a call the moment it is added, and a dependent one once its target is done', async () => {
    const gated = gatedTool();
    const log = eventLog();
    const dependentStarted = waitForEvent(
      (event) => event.type === 'call-started' && event.callId === 'call_2',
    );
    const executor = createExecutor({ tools: [gated.tool] });
    const run = executor.start({ onEvent: allOf(log.onEvent, dependentStarted.handler) });
    run.add({ id: 'call_1', name: 'test.wait', arguments: { key: 'one' } });
    expect(log.order()).toEqual(['plan-started', 'call-started:call_1']);
    run.add({
      id: 'call_2',
      name: 'test.wait',
      arguments: { key: 'two', value: { $ref: 'call_1' } },
    });
    expect(log.indexOf('call-started:call_2')).toBe(-1);
    gated.release('one');
    await dependentStarted.promise;
    expect(log.order()).toEqual([
      'plan-started',
      'call-started:call_1',
      'call-finished:call_1',
      'call-started:call_2',
    ]);
    gated.release('two');
    run.end();
    expect((await run.results).map((result) => result.output)).toEqual(['one', 'one']);
  });

  it('lets a call wait for a target that arrives later in the stream', async () => {
    const executor = createExecutor({ tools: [calculatorToolkit()] });
    const run = executor.start();
    run.add({
      id: 'call_2',
      name: 'calculator.multiply',
      arguments: { a: 4, b: { $ref: 'call_1' } },
    });
    run.add({ id: 'call_1', name: 'calculator.subtract', arguments: { a: 18, b: 6 } });
    run.end();
    expect((await run.results).map((result) => [result.call_id, result.output])).toEqual([
      ['call_2', 48],
      ['call_1', 12],
    ]);
  });

  it('at end(), fails calls waiting on ids that never arrived, and their dependents', async () => {
    const executor = createExecutor({ tools: [calculatorToolkit()] });
    const run = executor.start();
    run.add({ id: 'call_1', name: 'calculator.add', arguments: { a: 1, b: { $ref: 'call_9' } } });
    run.add({ id: 'call_2', name: 'calculator.add', arguments: { a: 1, b: { $ref: 'call_1' } } });
    run.add({
      id: 'call_3',
      name: 'calculator.add',
      arguments: { a: 1, b: 2 },
      depends_on: ['call_8'],
    });
    run.end();
    const [first, second, third] = await run.results;
    expect(first).toMatchObject({ error_code: 'invalid_plan', skipped: true });
    expect(first?.error).toBe(
      'Call "call_1" references {"$ref": "call_9"}, but no call with that id exists in this response or an earlier round.',
    );
    expect(second).toMatchObject({ error_code: 'dependency_failed', skipped: true });
    expect(second?.error).toContain('depends on "call_1"');
    expect(third?.error).toBe(
      'Call "call_3" depends on "call_8", but no call with that id exists in this response or an earlier round.',
    );
  });

  it('at end(), fails a cycle among waiting calls, naming it, and skips what depends on it', async () => {
    const executor = createExecutor({ tools: [calculatorToolkit()] });
    const results = await executor.executeToolCalls([
      { id: 'call_1', name: 'calculator.add', arguments: { a: 1, b: { $ref: 'call_3' } } },
      { id: 'call_2', name: 'calculator.add', arguments: { a: 2, b: 3 } },
      { id: 'call_3', name: 'calculator.add', arguments: { a: { $ref: 'call_1' }, b: 1 } },
      { id: 'call_4', name: 'calculator.add', arguments: { a: { $ref: 'call_3' }, b: 1 } },
    ]);
    const cycle =
      'Calls depend on each other in a cycle: call_1 -> call_3 -> call_1 (read "->" as "needs the output of"); no order can run them, so remove one of these references.';
    expect(results.map((result) => [result.call_id, result.error_code ?? result.output])).toEqual([
      ['call_1', 'invalid_plan'],
      ['call_2', 5],
      ['call_3', 'invalid_plan'],
      ['call_4', 'dependency_failed'],
    ]);
    expect(results[0]?.error).toBe(cycle);
    expect(results[2]?.error).toBe(cycle);
  });

  it('does not mistake calls waiting on a running call for a cycle at end()', async () => {
    const gated = gatedTool();
    const executor = createExecutor({ tools: [gated.tool] });
    const run = executor.start();
    run.add({ id: 'a', name: 'test.wait', arguments: { key: 'a' } });
    run.add({ id: 'b', name: 'test.wait', arguments: { key: 'b', value: { $ref: 'a' } } });
    run.add({ id: 'c', name: 'test.wait', arguments: { key: 'c', value: { $ref: 'b' } } });
    run.end();
    gated.release('a');
    gated.release('b');
    gated.release('c');
    expect((await run.results).map((result) => result.output)).toEqual(['a', 'a', 'a']);
  });

  it('throws when a call is added after end(), and end() may be called twice', async () => {
    const executor = createExecutor({ tools: [calculatorToolkit()] });
    const run = executor.start();
    run.end();
    run.end();
    expect(() => run.add({ id: 'late', name: 'calculator.add' })).toThrow(
      expect.objectContaining({ code: 'run_ended' }),
    );
    expect(await run.results).toEqual([]);
  });

  it('resolves with no results for an empty plan', async () => {
    const executor = createExecutor({ tools: [] });
    expect(await executor.execute({ batches: [] })).toEqual([]);
    expect(await executor.executeToolCalls([])).toEqual([]);
  });
});
