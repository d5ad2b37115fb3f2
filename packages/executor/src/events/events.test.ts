import { describe, expect, it } from 'vitest';
import { ExecutorError } from '../errors';
import { createExecutor } from '../executor';
import { calculatorToolkit } from '../toolkits';
import { defineTool } from '../tools/define-tool';
import type { CallFinishedEvent, ExecutorEvent, PlanFinishedEvent } from './events';

const chain = [
  { id: 'call_1', name: 'calculator.subtract', arguments: { a: 18, b: 6 } },
  { id: 'call_2', name: 'calculator.multiply', arguments: { a: 4, b: { $ref: 'call_1' } } },
  { id: 'call_3', name: 'calculator.divide', arguments: { a: { $ref: 'call_2' }, b: 0 } },
  { id: 'call_4', name: 'calculator.add', arguments: { a: 15, b: { $ref: 'call_3' } } },
];

describe('events', () => {
  it('tell the whole story: timestamps, ids, one terminal event per call, a summary', async () => {
    const events: ExecutorEvent[] = [];
    await createExecutor({ tools: [calculatorToolkit()] }).executeToolCalls(chain, {
      onEvent: (event) => events.push(event),
      runId: 'run_7',
    });
    expect(events.map((event) => event.type)).toEqual([
      'plan-started',
      'call-started',
      'call-finished',
      'call-started',
      'call-finished',
      'call-started',
      'call-finished',
      'call-skipped',
      'plan-finished',
    ]);
    expect(events.every((event) => event.runId === 'run_7')).toBe(true);
    const times = events.map((event) => event.at);
    expect(times).toEqual([...times].sort((left, right) => left - right));
    expect(events[0]).toEqual({
      type: 'plan-started',
      at: 0,
      runId: 'run_7',
      callCount: 4,
      issues: [],
    });
    const finished = events.filter(
      (event): event is CallFinishedEvent => event.type === 'call-finished',
    );
    expect(
      finished.map(({ callId, toolName, success, cached, approval, errorCode }) => ({
        callId,
        toolName,
        success,
        cached,
        approval,
        errorCode,
      })),
    ).toEqual([
      {
        callId: 'call_1',
        toolName: 'calculator.subtract',
        success: true,
        cached: false,
        approval: 'allow',
        errorCode: undefined,
      },
      {
        callId: 'call_2',
        toolName: 'calculator.multiply',
        success: true,
        cached: false,
        approval: 'allow',
        errorCode: undefined,
      },
      {
        callId: 'call_3',
        toolName: 'calculator.divide',
        success: false,
        cached: false,
        approval: 'allow',
        errorCode: 'tool_error',
      },
    ]);
    expect(
      finished.every((event) => event.durationMs >= 0 && event.result.call_id === event.callId),
    ).toBe(true);
    expect(events[7]).toMatchObject({
      type: 'call-skipped',
      callId: 'call_4',
      toolName: 'calculator.add',
      errorCode: 'dependency_failed',
      error: expect.stringContaining('depends on "call_3"'),
    });
    const summary = events[8] as PlanFinishedEvent;
    expect([summary.succeeded, summary.failed, summary.skipped, summary.results.length]).toEqual([
      2, 1, 1, 4,
    ]);
  });

  it('reportProgress reaches listeners as call-progress, and is harmless without one', async () => {
    const download = defineTool({
      name: 'net.download',
      description: 'Downloads.',
      input_schema: { type: 'object' },
      execute: async (_args, { reportProgress }) => {
        reportProgress({ completed: 1, total: 2, message: 'half way' });
        reportProgress({ completed: 2, total: 2 });
        return 'done';
      },
    });
    const executor = createExecutor({ tools: [download] });
    const progress: unknown[] = [];
    await executor.executeToolCalls([{ id: 'd', name: 'net.download' }], {
      onEvent: (event) =>
        event.type === 'call-progress' && progress.push([event.callId, event.progress]),
    });
    expect(progress).toEqual([
      ['d', { completed: 1, total: 2, message: 'half way' }],
      ['d', { completed: 2, total: 2 }],
    ]);
    expect((await executor.executeToolCalls([{ id: 'd', name: 'net.download' }]))[0]?.output).toBe(
      'done',
    );
  });

  it('a run offers its events as an async iterator, from plan-started to plan-finished', async () => {
    const run = createExecutor({ tools: [calculatorToolkit()] }).start({ runId: 'r1' });
    const types: string[] = [];
    const consumed = (async () => {
      for await (const event of run.events)
        types.push(`${event.type}${'callId' in event ? `:${event.callId}` : ''}`);
    })();
    for (const call of chain.slice(0, 2)) run.add(call);
    run.end();
    await consumed;
    expect(types).toEqual([
      'plan-started',
      'call-started:call_1',
      'call-finished:call_1',
      'call-started:call_2',
      'call-finished:call_2',
      'plan-finished',
    ]);
    expect(() => run.events[Symbol.asyncIterator]()).toThrow(ExecutorError);
  });

  it('stream(plan) yields every event; plan-finished carries the results', async () => {
    const executor = createExecutor({ tools: [calculatorToolkit()] });
    const { planFromToolCalls } = await import('@mtpx/protocol');
    const seen: ExecutorEvent[] = [];
    for await (const event of executor.stream(planFromToolCalls(chain.slice(0, 2)), {
      runId: 'r2',
    }))
      seen.push(event);
    const last = seen.at(-1) as PlanFinishedEvent;
    expect(seen[0]?.type).toBe('plan-started');
    expect(last.type).toBe('plan-finished');
    expect(last.results.map((result) => result.output)).toEqual([12, 48]);
    expect(seen.every((event) => event.runId === 'r2')).toBe(true);
  });

  it('a consumer that stops early detaches; the run still finishes', async () => {
    const run = createExecutor({ tools: [calculatorToolkit()] }).start();
    const iterator = run.events[Symbol.asyncIterator]();
    run.add(chain[0] as (typeof chain)[number]);
    expect((await iterator.next()).value?.type).toBe('plan-started');
    await iterator.return?.();
    run.end();
    expect((await run.results)[0]?.output).toBe(12);
    expect((await iterator.next()).done).toBe(true);
  });

  it('an onEvent handler that throws does not stop the run, but its results reject afterwards', async () => {
    let finishedCalls = 0;
    const running = createExecutor({ tools: [calculatorToolkit()] }).executeToolCalls(
      chain.slice(0, 2),
      {
        onEvent: (event) => {
          if (event.type === 'call-finished') finishedCalls++;
          if (event.type === 'call-started') throw new Error('UI bug');
        },
      },
    );
    await expect(running).rejects.toMatchObject({
      code: 'event_handler_failed',
      message: 'An onEvent handler threw: UI bug',
    });
    expect(finishedCalls).toBe(2);
  });
});
