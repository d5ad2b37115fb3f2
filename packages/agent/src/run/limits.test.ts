import { defineTool } from '@mtpx/executor';
import { calculatorToolkit } from '@mtpx/executor/toolkits';
import type { Provider } from '@mtpx/protocol';
import { scriptedProvider } from '@mtpx/providers/testing';
import { describe, expect, it } from 'vitest';
import { collect, finalTurn, seedQuestion, seedTurn, signal, trace } from '../__fixtures__/seed';
import { type AgentEvent, createAgent } from '../index';

const calculator = calculatorToolkit();

/** A tool that runs until its signal fires. */
const waitForever = defineTool({
  name: 'slow.wait',
  description: 'Waits until cancelled.',
  input_schema: { type: 'object' },
  execute: (_args, { signal: callSignal }) =>
    new Promise((_resolve, reject) => {
      callSignal.addEventListener('abort', () => reject(callSignal.reason), { once: true });
    }),
});

describe('maxRounds', () => {
  it('stops with max_rounds when the last allowed round still asks for tools (its calls run)', async () => {
    const provider = scriptedProvider((_request, turn) => ({
      text: `Step ${turn + 1}.`,
      toolCalls: [
        { id: `call_r${turn + 1}`, name: 'calculator.add', arguments: { a: turn, b: 1 } },
      ],
    }));
    const agent = createAgent({ provider, tools: [calculator], maxRounds: 3 });
    const output = await agent.run('Count.');
    expect(output).toMatchObject({ stop_reason: 'max_rounds', rounds: 3, final_text: 'Step 3.' });
    expect(output.tool_results.map((result) => result.output)).toEqual([1, 2, 3]);
    expect(output.messages.at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'call_r3',
      name: 'calculator.add',
      content: '3',
    });
    expect(provider.requests).toHaveLength(3);
  });

  it('a run may override it', async () => {
    const provider = scriptedProvider(() => ({
      toolCalls: [{ name: 'calculator.add', arguments: { a: 1, b: 1 } }],
    }));
    const agent = createAgent({ provider, tools: [calculator] });
    const output = await agent.run('Loop.', { maxRounds: 1 });
    expect(output).toMatchObject({ stop_reason: 'max_rounds', rounds: 1 });
  });
});

describe('toolCallLimit', () => {
  it('runs the calls within the limit, answers the rest with an error, and stops', async () => {
    const provider = scriptedProvider([seedTurn(), finalTurn]);
    const agent = createAgent({ provider, tools: [calculator], toolCallLimit: 3 });
    const events: AgentEvent[] = [];
    const output = await agent.run(seedQuestion, { onEvent: (event) => events.push(event) });
    expect(output.stop_reason).toBe('tool_call_limit');
    expect(output.rounds).toBe(1);
    expect(output.tool_results.map((result) => result.error_code ?? result.output)).toEqual([
      12,
      48,
      16,
      'denied',
    ]);
    expect(output.messages.at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'call_4',
      name: 'calculator.add',
      content:
        'Error (denied): Not run: this run allows at most 3 tool calls, and that many have been made.',
      is_error: true,
    });
    expect(trace(events)).toEqual([
      'round 1',
      'ready call_1',
      'ready call_2',
      'ready call_3',
      'ready call_4 refused',
      'skip call_4 denied',
      'start call_1',
      'finish call_1 12',
      'start call_2',
      'finish call_2 48',
      'start call_3',
      'finish call_3 16',
      'round 1 done (tool_calls)',
      'run finished: tool_call_limit',
    ]);
  });

  it('counts calls across the rounds of a run, streamed too', async () => {
    const provider = scriptedProvider([
      { toolCalls: [{ id: 'call_a', name: 'calculator.add', arguments: { a: 1, b: 2 } }] },
      { toolCalls: [{ id: 'call_b', name: 'calculator.add', arguments: { a: 3, b: 4 } }] },
      { toolCalls: [{ id: 'call_c', name: 'calculator.add', arguments: { a: 5, b: 6 } }] },
    ]);
    const agent = createAgent({ provider, tools: [calculator], toolCallLimit: 2 });
    const { events, output } = await collect(agent.stream('Add.'));
    expect(output).toMatchObject({ stop_reason: 'tool_call_limit', rounds: 3 });
    expect(output?.tool_results.map((result) => result.error_code ?? result.output)).toEqual([
      3,
      7,
      'denied',
    ]);
    expect(events.filter((event) => event.type === 'call-started')).toHaveLength(2);
  });

  it('0 allows no call at all', async () => {
    const provider = scriptedProvider([seedTurn()]);
    const output = await createAgent({ provider, tools: [calculator], toolCallLimit: 0 }).run(
      seedQuestion,
    );
    expect(output.stop_reason).toBe('tool_call_limit');
    expect(output.tool_results.every((result) => result.skipped && !result.success)).toBe(true);
  });
});

describe('cancellation', () => {
  it('while a tool runs: the call is cancelled and answered, and the run ends as cancelled', async () => {
    const provider = scriptedProvider([
      {
        toolCalls: [
          { id: 'call_w', name: 'slow.wait' },
          { id: 'call_s', name: 'calculator.add', arguments: { a: 1, b: 2 } },
        ],
      },
    ]);
    const agent = createAgent({ provider, tools: [calculator, waitForever] });
    const controller = new AbortController();
    const events: AgentEvent[] = [];
    const output = await agent.run('Wait.', {
      signal: controller.signal,
      onEvent: (event) => {
        events.push(event);
        if (event.type === 'call-started' && event.callId === 'call_w')
          controller.abort('user stop');
      },
    });
    expect(output.stop_reason).toBe('cancelled');
    expect(output.rounds).toBe(1);
    expect(output.tool_results.map((result) => [result.call_id, result.error_code])).toEqual([
      ['call_w', 'cancelled'],
      ['call_s', 'cancelled'],
    ]);
    expect(output.messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'tool',
    ]);
    const last = events.at(-1);
    expect(last).toMatchObject({ type: 'run-cancelled', reason: 'user stop' });
  });

  it('while the model streams: calls already ready are answered, the rest never exist', async () => {
    // A model that writes call_1, begins call_2, then stalls until the request is aborted.
    const call1 = {
      id: 'call_1',
      name: 'calculator.subtract',
      arguments: { a: 18, b: 6 },
      depends_on: [],
    };
    const stalling: Provider = {
      name: 'stalling',
      model: 'stall-1',
      generate: () => Promise.reject(new Error('not used')),
      async *stream(request) {
        yield { type: 'text-delta', delta: 'Working.' };
        yield {
          type: 'tool-call-delta',
          index: 0,
          callId: 'call_1',
          argumentsDelta: '{"a":18,"b":6}',
        };
        yield { type: 'tool-call-ready', index: 0, toolCall: call1 };
        yield { type: 'tool-call-delta', index: 1, callId: 'call_2', argumentsDelta: '{"a":4,' };
        const aborted = request.signal as AbortSignal;
        await new Promise((_resolve, reject) => {
          if (aborted.aborted) reject(aborted.reason);
          aborted.addEventListener('abort', () => reject(aborted.reason), { once: true });
        });
      },
    };
    const agent = createAgent({ provider: stalling, tools: [calculator] });
    const firstFinished = signal();
    const stream = agent.stream(seedQuestion, {
      onEvent: (event) => {
        if (event.type === 'call-finished') firstFinished.resolve();
      },
    });
    await firstFinished.promise;
    stream.cancel('enough');
    const { events, output } = await collect(stream);
    expect(output?.stop_reason).toBe('cancelled');
    expect(output?.tool_results.map((result) => [result.call_id, result.output])).toEqual([
      ['call_1', 12],
    ]);
    expect(output?.messages.slice(1)).toEqual([
      { role: 'assistant', content: 'Working.', tool_calls: [call1] },
      { role: 'tool', tool_call_id: 'call_1', name: 'calculator.subtract', content: '12' },
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'run-cancelled', reason: 'enough' });
  });

  it('before the run starts: no model call at all', async () => {
    const provider = scriptedProvider([finalTurn]);
    const output = await createAgent({ provider, tools: [calculator] }).run('Hi', {
      signal: AbortSignal.abort('never mind'),
    });
    expect(output).toMatchObject({ stop_reason: 'cancelled', rounds: 0, final_text: '' });
    expect(provider.requests).toHaveLength(0);
  });
});
