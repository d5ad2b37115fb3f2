import type { ToolCall, ToolResult } from '@mtpx/protocol';
import { describe, expect, it } from 'vitest';
import type { ExecutorEvent } from '../events/events';
import { createExecutor } from '../executor';
import { calculatorToolkit } from '../toolkits';

const known: ToolResult = {
  call_id: 'call_1',
  tool_name: 'calculator.subtract',
  output: 12,
  success: true,
  cached: false,
  skipped: false,
  created_at: '2026-01-01T00:00:00.000Z',
};

/** Answers call_1 with 18 - 6 (as a journal of an earlier attempt would). */
const journal = (call: ToolCall) =>
  call.id === 'call_1' && JSON.stringify(call.arguments) === '{"a":18,"b":6}' ? known : undefined;

describe('answering calls from known results (a run journal)', () => {
  it('answers a known call without running it; calls that need it resolve against it; ran calls are recorded', async () => {
    const events: ExecutorEvent[] = [];
    const recorded: Array<[string, unknown]> = [];
    const execution = createExecutor({ tools: [calculatorToolkit()] }).start({
      knownResult: journal,
      onResult: (call, result) => recorded.push([call.id, result.output]),
      onEvent: (event) => events.push(event),
    });
    // The dependent arrives first: it waits for call_1, which is then answered.
    execution.add({
      id: 'call_2',
      name: 'calculator.multiply',
      arguments: { a: 4, b: { $ref: 'call_1' } },
    });
    execution.add({ id: 'call_1', name: 'calculator.subtract', arguments: { a: 18, b: 6 } });
    execution.end();
    const results = await execution.results;
    expect(results[1]).toBe(known);
    expect(results[0]).toMatchObject({ call_id: 'call_2', output: 48 });
    expect(recorded).toEqual([['call_2', 48]]);
    const concerning = events.filter((event) => 'callId' in event && event.callId === 'call_1');
    expect(concerning).toEqual([]);
  });

  it('other arguments, a duplicate id or an id from history are never answered from it', async () => {
    const execution = createExecutor({ tools: [calculatorToolkit()] }).start({
      knownResult: journal,
      history: new Map([['call_h', known]]),
    });
    execution.add({ id: 'call_1', name: 'calculator.subtract', arguments: { a: 20, b: 6 } });
    execution.add({ id: 'call_1', name: 'calculator.subtract', arguments: { a: 18, b: 6 } });
    execution.add({ id: 'call_h', name: 'calculator.subtract', arguments: { a: 18, b: 6 } });
    execution.end();
    const results = await execution.results;
    expect(results.map((result) => result.error_code ?? result.output)).toEqual([
      14,
      'invalid_plan',
      'invalid_plan',
    ]);
  });

  it('cancelled calls are not recorded', async () => {
    const recorded: string[] = [];
    const controller = new AbortController();
    const execution = createExecutor({ tools: [calculatorToolkit()] }).start({
      signal: controller.signal,
      onResult: (call) => recorded.push(call.id),
    });
    controller.abort();
    execution.add({ id: 'call_1', name: 'calculator.add', arguments: { a: 1, b: 2 } });
    execution.end();
    await execution.results;
    expect(recorded).toEqual([]);
  });
});
