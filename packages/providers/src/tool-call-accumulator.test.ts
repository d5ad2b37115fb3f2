import { describe, expect, it } from 'vitest';
import { trace } from './__fixtures__/collect';
import { ProviderError } from './provider-error';
import { ToolCallAccumulator } from './tool-call-accumulator';

const indexed = () =>
  new ToolCallAccumulator({
    provider: 'test',
    readiness: 'next-call-or-end',
    mapName: (name) => name.replace('_', '.'),
    createId: () => 'generated_1',
  });

describe('ToolCallAccumulator (next-call-or-end)', () => {
  it('holds a complete call until a later call begins', () => {
    const calls = indexed();
    const first = calls.push({
      index: 0,
      id: 'call_1',
      name: 'calculator_add',
      argumentsDelta: '{"a":1,"b":2}',
    });
    expect(first.map((event) => event.type)).toEqual(['tool-call-delta']);
    const second = calls.push({
      index: 1,
      id: 'call_2',
      name: 'calculator_add',
      argumentsDelta: '',
    });
    expect(trace(second)).toEqual([
      'delta 1 call_2 calculator.add +""',
      'ready 0 call_1 calculator.add {"a":1,"b":2}',
    ]);
    expect(calls.completeAll().map((event) => event.type)).toEqual(['tool-call-ready']);
    expect(calls.toolCalls().map((call) => call.id)).toEqual(['call_1', 'call_2']);
  });

  it('does not report an earlier call whose arguments are not yet a whole object', () => {
    const calls = indexed();
    calls.push({ index: 0, id: 'call_1', name: 'calculator_add', argumentsDelta: '{"a":{"b":1}' });
    expect(
      calls.push({ index: 1, id: 'call_2', name: 'calculator_add' }).map((event) => event.type),
    ).toEqual(['tool-call-delta']);
    const closing = calls.push({ index: 0, argumentsDelta: '}' });
    expect(closing.map((event) => event.type)).toEqual(['tool-call-delta', 'tool-call-ready']);
  });

  it('keeps a call whose text never parses, with the error, at the end of the stream', () => {
    const calls = indexed();
    calls.push({ index: 0, id: 'call_1', name: 'calculator_add', argumentsDelta: '{"a":' });
    calls.push({ index: 1, id: 'call_2', name: 'calculator_add', argumentsDelta: '[1]' });
    const ready = calls.completeAll();
    expect(ready).toHaveLength(2);
    expect(calls.toolCalls().map((call) => call.arguments_error !== undefined)).toEqual([
      true,
      true,
    ]);
  });

  it('rejects more arguments for a call already reported ready, but tolerates empty or whitespace fragments', () => {
    const calls = indexed();
    calls.push({ index: 0, id: 'call_1', name: 'calculator_add', argumentsDelta: '{}' });
    calls.push({ index: 1, id: 'call_2', name: 'calculator_add' });
    expect(calls.push({ index: 0, argumentsDelta: ' ' })).toEqual([]);
    expect(calls.push({ index: 0, id: 'call_1', name: 'calculator_add' })).toEqual([]);
    expect(() => calls.push({ index: 0, argumentsDelta: '{"a":1}' })).toThrowError(
      expect.objectContaining({ code: 'invalid_stream' }),
    );
  });

  it('starts a new call when an index is reused with a new id', () => {
    const calls = indexed();
    calls.push({ index: 0, id: 'call_1', name: 'calculator_add', argumentsDelta: '{"a":1}' });
    const events = calls.push({
      index: 0,
      id: 'call_2',
      name: 'calculator_add',
      argumentsDelta: '{"b":2}',
    });
    expect(trace(events)).toEqual([
      'delta 1 call_2 calculator.add +"{\\"b\\":2}"',
      'ready 0 call_1 calculator.add {"a":1}',
    ]);
  });

  it('rejects a call that changes its tool name', () => {
    const calls = indexed();
    calls.push({ index: 0, id: 'call_1', name: 'calculator_add' });
    expect(() => calls.push({ index: 0, name: 'calculator_sub' })).toThrowError(ProviderError);
  });

  it('gives an id to a call sent without one, and lists incomplete calls', () => {
    const calls = indexed();
    calls.push({ index: 0, name: 'calculator_add', argumentsDelta: '{"a":' });
    expect(calls.incomplete()).toEqual([
      { index: 0, id: undefined, name: 'calculator.add', argumentsText: '{"a":' },
    ]);
    calls.push({ index: 0, argumentsDelta: '1}' });
    calls.completeAll();
    expect(calls.toolCalls()[0]?.id).toBe('generated_1');
    expect(calls.incomplete()).toEqual([]);
  });
});

describe('ToolCallAccumulator (explicit)', () => {
  it('reports a call ready only when told, whatever follows', () => {
    const calls = new ToolCallAccumulator({ provider: 'test', readiness: 'explicit' });
    calls.push({ index: 1, id: 'toolu_1', name: 'add', argumentsDelta: '{"a":1}' });
    expect(calls.push({ index: 2, id: 'toolu_2', name: 'add' }).map((event) => event.type)).toEqual(
      ['tool-call-delta'],
    );
    expect(trace(calls.complete(1))).toEqual(['ready 0 toolu_1 add {"a":1}']);
    expect(calls.complete(1)).toEqual([]);
    expect(calls.complete(7)).toEqual([]);
    expect(calls.incomplete().map((call) => call.id)).toEqual(['toolu_2']);
  });
});
