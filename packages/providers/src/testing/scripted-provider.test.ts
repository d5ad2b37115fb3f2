import { describe, expect, it } from 'vitest';
import { collect, trace } from '../__fixtures__/collect';
import { ProviderError } from '../provider-error';
import { scriptedProvider } from './scripted-provider';

const seedChain = {
  toolCalls: [
    { id: 'call_1', name: 'calculator.subtract', arguments: { a: 18, b: 6 } },
    { id: 'call_2', name: 'calculator.multiply', arguments: { a: 4, b: { $ref: 'call_1' } } },
    { id: 'call_3', name: 'calculator.divide', arguments: { a: { $ref: 'call_2' }, b: 3 } },
    { id: 'call_4', name: 'calculator.add', arguments: { a: 15, b: { $ref: 'call_3' } } },
  ],
};
const request = {
  messages: [{ role: 'user' as const, content: 'What is 15 + (4 × (18 − 6)) / 3?' }],
  tools: [],
};

describe('scriptedProvider', () => {
  it('answers each request with the next turn, and records the requests', async () => {
    const provider = scriptedProvider([seedChain, { text: 'It is 31.' }]);
    const first = await provider.generate(request);
    expect(first.finishReason).toBe('tool_calls');
    expect(first.message.tool_calls?.map((call) => call.name)).toEqual([
      'calculator.subtract',
      'calculator.multiply',
      'calculator.divide',
      'calculator.add',
    ]);
    expect(first.message.tool_calls?.[1]?.arguments).toEqual({ a: 4, b: { $ref: 'call_1' } });
    const second = await provider.generate(request);
    expect(second.message).toEqual({ role: 'assistant', content: 'It is 31.' });
    expect(second.finishReason).toBe('stop');
    expect(provider.requests).toHaveLength(2);
  });

  it('streams in chunks and reports each call ready when the next begins', async () => {
    const provider = scriptedProvider([seedChain], { chunkSize: 8 });
    const { events, error } = await collect(provider.stream(request));
    expect(error).toBeUndefined();
    const lines = trace(events);
    expect(lines.filter((line) => line.startsWith('ready'))).toEqual([
      'ready 0 call_1 calculator.subtract {"a":18,"b":6}',
      'ready 1 call_2 calculator.multiply {"a":4,"b":{"$ref":"call_1"}}',
      'ready 2 call_3 calculator.divide {"a":{"$ref":"call_2"},"b":3}',
      'ready 3 call_4 calculator.add {"a":15,"b":{"$ref":"call_3"}}',
    ]);
    expect(lines.indexOf('ready 0 call_1 calculator.subtract {"a":18,"b":6}')).toBeLessThan(
      lines.findIndex((line) => line.startsWith('delta 3')),
    );
    expect(lines.filter((line) => line.startsWith('delta 1')).length).toBeGreaterThan(1);
    expect(lines.at(-1)).toBe('finish tool_calls');
  });

  it('replays malformed arguments as the model would send them', async () => {
    const provider = scriptedProvider([
      { toolCalls: [{ id: 'call_1', name: 'calculator.add', arguments: '{"a":' }] },
    ]);
    const { events } = await collect(provider.stream(request));
    const ready = events.find((event) => event.type === 'tool-call-ready');
    expect(ready?.type === 'tool-call-ready' && ready.toolCall).toMatchObject({
      raw_arguments: '{"a":',
      arguments_error: expect.stringContaining('not valid JSON'),
    });
  });

  it('answers from a function of the request', async () => {
    const provider = scriptedProvider((_request, turnIndex) => ({ text: `turn ${turnIndex}` }));
    expect((await provider.generate(request)).message.content).toBe('turn 0');
    expect((await provider.generate(request)).message.content).toBe('turn 1');
  });

  it('throws script_exhausted when asked for a turn it does not hold', async () => {
    const provider = scriptedProvider([{ text: 'only one' }]);
    await provider.generate(request);
    const error = await provider.generate(request).catch((caught) => caught);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'script_exhausted', provider: 'scripted' });
  });

  it('gives calls ids when the script leaves them out', async () => {
    const provider = scriptedProvider([{ toolCalls: [{ name: 'a.b' }, { name: 'a.c' }] }]);
    const turn = await provider.generate(request);
    expect(turn.message.tool_calls?.map((call) => [call.id, call.arguments])).toEqual([
      ['call_1_1', {}],
      ['call_1_2', {}],
    ]);
  });

  it('honours the abort signal while it waits', async () => {
    const provider = scriptedProvider([{ text: 'late' }], { latencyMs: 60_000 });
    const controller = new AbortController();
    const pending = provider.generate({ ...request, signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'aborted' });
  });
});
