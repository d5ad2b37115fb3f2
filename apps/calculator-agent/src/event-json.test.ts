import type { AgentEvent } from '@mtpx/agent';
import { safeParseJson } from '@mtpx/protocol';
import { describe, expect, it } from 'vitest';
import { dependencyEdges, eventJson } from './event-json';

function parsed(event: AgentEvent): unknown {
  const result = safeParseJson(eventJson(event));
  if (!result.ok) throw new Error('not JSON');
  return result.value;
}

const call = {
  id: 'call_2',
  name: 'calculator.multiply',
  arguments: { a: 4, b: { $ref: 'call_1' } },
};

describe('eventJson', () => {
  it('prints a ready call once, with the graph’s edges as depends_on', () => {
    const event = {
      type: 'tool-call-ready',
      runId: 'run_1',
      at: 256.1719579999999,
      round: 1,
      index: 1,
      toolCall: { ...call, depends_on: [] },
      call: { ...call, depends_on: [] },
      aliases: {},
      refused: false,
    } as unknown as AgentEvent;
    expect(parsed(event)).toEqual({
      type: 'tool-call-ready',
      runId: 'run_1',
      at: 256.2,
      round: 1,
      index: 1,
      toolCall: { ...call, depends_on: ['call_1'] },
      aliases: {},
      refused: false,
    });
  });

  it('keeps `call` when an alias was rewritten', () => {
    const rewritten = { ...call, arguments: { a: 4, b: { $ref: 'call_Xk3' } } };
    const event = {
      type: 'tool-call-ready',
      runId: 'run_1',
      at: 1,
      round: 1,
      index: 1,
      toolCall: call,
      call: rewritten,
      aliases: { call_1: 'call_Xk3' },
      refused: false,
    } as unknown as AgentEvent;
    expect(parsed(event)).toMatchObject({
      toolCall: { depends_on: ['call_1'] },
      call: { depends_on: ['call_Xk3'] },
    });
  });

  it('prints unknown usage as null and rounds every time to 0.1 ms', () => {
    const event = {
      type: 'round-finished',
      runId: 'run_1',
      at: 1023.04999,
      round: 2,
      modelMs: 442.66666,
      durationMs: 443.01,
      usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    } as unknown as AgentEvent;
    expect(parsed(event)).toMatchObject({ at: 1023, modelMs: 442.7, durationMs: 443, usage: null });
    const counted = { ...event, usage: { inputTokens: 12, outputTokens: 3, totalTokens: 15 } };
    expect(parsed(counted as AgentEvent)).toMatchObject({ usage: { totalTokens: 15 } });
  });
});

describe('dependencyEdges', () => {
  it('joins explicit dependencies and $refs, once each', () => {
    expect(
      dependencyEdges({
        depends_on: ['call_0'],
        arguments: { x: { $ref: 'call_1' }, y: [{ $ref: 'call_0' }] },
      }),
    ).toEqual(['call_0', 'call_1']);
  });
});
