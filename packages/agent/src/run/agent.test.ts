import { calculatorToolkit } from '@mtpx/executor/toolkits';
import { scriptedProvider } from '@mtpx/providers/testing';
import { describe, expect, it } from 'vitest';
import {
  collect,
  finalTurn,
  openAIIds,
  positionOf,
  seedQuestion,
  seedTurn,
  trace,
} from '../__fixtures__/seed';
import { createAgent, REFERENCE_INSTRUCTIONS } from '../index';

const tools = [calculatorToolkit()];

describe('an agent with the scripted provider (offline, no key)', () => {
  it("answers the seed's four-call chain in ONE tool round: two model calls in all", async () => {
    const provider = scriptedProvider([seedTurn(openAIIds), finalTurn]);
    const agent = createAgent({ provider, tools });
    const output = await agent.run(seedQuestion);

    expect(output.stop_reason).toBe('final');
    expect(output.final_text).toBe('15 + (4 × (18 − 6)) / 3 = 31.');
    expect(output.rounds).toBe(2);
    expect(provider.requests).toHaveLength(2);
    expect(output.tool_results.map((result) => [result.call_id, result.output])).toEqual([
      [openAIIds[0], 12],
      [openAIIds[1], 48],
      [openAIIds[2], 16],
      [openAIIds[3], 31],
    ]);
    expect(output.usage).toEqual({ inputTokens: 2000, outputTokens: 140, totalTokens: 2140 });
    expect(output.run_id).toMatch(/^run_[0-9a-f-]{36}$/);
    // The conversation keeps the model's words (aliases), and answers each call by its real id.
    expect(output.messages.slice(2)).toEqual([
      { role: 'tool', tool_call_id: openAIIds[0], name: 'calculator.subtract', content: '12' },
      { role: 'tool', tool_call_id: openAIIds[1], name: 'calculator.multiply', content: '48' },
      { role: 'tool', tool_call_id: openAIIds[2], name: 'calculator.divide', content: '16' },
      { role: 'tool', tool_call_id: openAIIds[3], name: 'calculator.add', content: '31' },
      { role: 'assistant', content: '15 + (4 × (18 − 6)) / 3 = 31.' },
    ]);
    const assistant = output.messages[1];
    expect(assistant?.role === 'assistant' && assistant.tool_calls?.[1]?.arguments).toEqual({
      a: 4,
      b: { $ref: 'call_1' },
    });
    expect(output.messages[0]).toEqual({ role: 'user', content: seedQuestion });
  });

  it('sends the built-in instructions before its own, and the conversation so far', async () => {
    const provider = scriptedProvider([seedTurn(), finalTurn]);
    const agent = createAgent({ provider, tools, instructions: 'Answer in one sentence.' });
    await agent.run(seedQuestion);
    const [first, second] = provider.requests;
    expect(first?.messages[0]).toEqual({
      role: 'system',
      content: `${REFERENCE_INSTRUCTIONS}\n\nAnswer in one sentence.`,
    });
    expect(second?.messages.map((message) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'tool',
      'tool',
      'tool',
    ]);
    expect(first?.tools.map((tool) => tool.name)).toEqual([
      'calculator.add',
      'calculator.subtract',
      'calculator.multiply',
      'calculator.divide',
      'calculator.sqrt',
    ]);
  });

  it('sends no system message when both instruction sources are off', async () => {
    const provider = scriptedProvider([{ text: 'Hi.' }]);
    const agent = createAgent({ provider, tools, referenceInstructions: false });
    const output = await agent.run('Hello');
    expect(provider.requests[0]?.messages).toEqual([{ role: 'user', content: 'Hello' }]);
    expect(output).toMatchObject({ final_text: 'Hi.', rounds: 1, stop_reason: 'final' });
  });

  it('streams: each call starts as soon as it is ready, while the model is still writing the next', async () => {
    const provider = scriptedProvider([seedTurn(), finalTurn], { chunkSize: 4 });
    const agent = createAgent({ provider, tools });
    const { events, output } = await collect(agent.stream(seedQuestion));
    expect(output?.final_text).toBe('15 + (4 × (18 − 6)) / 3 = 31.');
    expect(output?.tool_results.map((result) => result.output)).toEqual([12, 48, 16, 31]);

    const at = (type: string, id: string) =>
      positionOf(
        events,
        (event) =>
          event.type === type &&
          ('callId' in event ? event.callId : 'toolCall' in event ? event.toolCall.id : '') === id,
      );
    const call4Begins = positionOf(
      events,
      (event) => event.type === 'tool-call-delta' && event.index === 3,
    );
    expect(at('call-started', 'call_1')).toBeGreaterThan(at('tool-call-ready', 'call_1'));
    expect(at('call-started', 'call_1')).toBeLessThan(call4Begins);
    expect(at('call-started', 'call_1')).toBeLessThan(at('tool-call-ready', 'call_4'));
    expect(at('call-started', 'call_2')).toBeLessThan(at('tool-call-ready', 'call_4'));
    expect(events[0]?.type).toBe('run-started');
    expect(events.at(-1)?.type).toBe('run-finished');
  });

  it('with eagerDispatch off, streams the calls and starts them only after the stream ends', async () => {
    const provider = scriptedProvider([seedTurn(), finalTurn], { chunkSize: 4 });
    const agent = createAgent({ provider, tools, eagerDispatch: false });
    const { events, output } = await collect(agent.stream(seedQuestion));
    expect(output?.tool_results.map((result) => result.output)).toEqual([12, 48, 16, 31]);
    expect(trace(events)).toEqual([
      'round 1',
      'ready call_1',
      'ready call_2',
      'ready call_3',
      'ready call_4',
      'start call_1',
      'finish call_1 12',
      'start call_2',
      'finish call_2 48',
      'start call_3',
      'finish call_3 16',
      'start call_4',
      'finish call_4 31',
      'round 1 done (tool_calls)',
      'round 2',
      'round 2 done (stop)',
      'run finished: final',
    ]);
    const started = events.find((event) => event.type === 'run-started');
    expect(started).toMatchObject({ streaming: true, eagerDispatch: false });
  });

  it('stamps every event with the run id and one monotonic clock; executor events keep their own time', async () => {
    const provider = scriptedProvider([seedTurn(), finalTurn], { chunkSize: 4 });
    const agent = createAgent({ provider, tools, name: 'calculator' });
    const stream = agent.stream(seedQuestion, { runId: 'run_fixed' });
    const { events } = await collect(stream);
    expect(stream.runId).toBe('run_fixed');
    expect(events.every((event) => event.runId === 'run_fixed')).toBe(true);
    const times = events.map((event) => event.at);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    const started = events.find((event) => event.type === 'call-started');
    expect(started).toMatchObject({ round: 1, executorAt: expect.any(Number) });
    expect(events[0]).toMatchObject({
      type: 'run-started',
      input: seedQuestion,
      provider: 'scripted',
      model: 'scripted',
      agentName: 'calculator',
      streaming: true,
      eagerDispatch: true,
    });
    const round = events.find((event) => event.type === 'round-finished');
    expect(round).toMatchObject({
      round: 1,
      finishReason: 'tool_calls',
      usage: { inputTokens: 900, outputTokens: 120, totalTokens: 1020 },
      modelMs: expect.any(Number),
      durationMs: expect.any(Number),
    });
    expect(round?.type === 'round-finished' && round.toolResults.map((r) => r.output)).toEqual([
      12, 48, 16, 31,
    ]);
    const ready = events.find((event) => event.type === 'tool-call-ready' && event.index === 1);
    expect(ready).toMatchObject({
      toolCall: { id: 'call_2', arguments: { a: 4, b: { $ref: 'call_1' } } },
      aliases: {},
      refused: false,
    });
  });

  it('streams text deltas of a plain answer', async () => {
    const provider = scriptedProvider([{ text: 'Hello there, how can I help?' }], { chunkSize: 8 });
    const agent = createAgent({ provider, tools });
    const { events, output } = await collect(agent.stream('Hi'));
    const text = events.flatMap((event) => (event.type === 'text-delta' ? [event.delta] : []));
    expect(text).toEqual(['Hello th', 'ere, how', ' can I h', 'elp?']);
    expect(output?.final_text).toBe('Hello there, how can I help?');
  });
});
