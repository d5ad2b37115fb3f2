import { describe, expect, expectTypeOf, it } from 'vitest';
import type { TaskPlanPayload } from '../registry/payloads';
import { MplClient } from './client';
import type { HandledMessage } from './mpl-session';
import type { DeliveredMessage } from './wire';

const planId = '550e8400-e29b-41d4-a716-446655440010';

function delivered(stype: string, payload: unknown, seq = 1): DeliveredMessage {
  return {
    method: 'agent.test',
    stype,
    payload: payload as never,
    sem_hash: 'sha256:00',
    plan_id: planId,
    seq,
    entry_hash: 'sha256:11',
    timestamp: '2025-02-01T10:00:00.000Z',
    qom_passed: true,
  };
}

async function* from(messages: DeliveredMessage[]) {
  yield* messages;
}

describe('MplSession', () => {
  it('dispatches each message to the handler of its SType, with typed payloads', async () => {
    const session = await new MplClient('http://127.0.0.1:1').createSession();
    session.onMessage('org.agent.TaskPlan.v1', async (message) => {
      expectTypeOf(message.payload).toEqualTypeOf<TaskPlanPayload>();
      return { status: 'accepted', planId: message.payload.planId };
    });
    session.onMessage('ai.agent.Reasoning.v1', (message) => ({
      conclusion: message.payload.conclusion,
    }));
    session.onMessage('org.agent.ToolResult.v1', () => {
      throw new Error('handler broke');
    });
    const outcomes: HandledMessage[] = [];
    const summary = await session.run({
      onHandled: (handled) => outcomes.push(handled),
      source: from([
        delivered('org.agent.TaskPlan.v1', {
          planId,
          goal: 'g',
          steps: [{ stepId: 1, action: 'a', tool: 't' }],
        }),
        delivered(
          'ai.agent.Reasoning.v1',
          { reasoningId: planId, planId, thought: 't', conclusion: 'go' },
          2,
        ),
        delivered('org.agent.TaskPlan.v1', { planId, goal: 'no steps' }, 3),
        delivered(
          'org.agent.ToolResult.v1',
          { invocationId: planId, status: 'success', result: {} },
          4,
        ),
        delivered('org.other.Thing.v1', {}, 5),
      ]),
    });
    expect(summary).toEqual({ handled: 2, unhandled: 1, invalid: 1, failed: 1 });
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      'handled',
      'handled',
      'invalid',
      'failed',
      'unhandled',
    ]);
    expect(outcomes[0]).toMatchObject({ reply: { status: 'accepted', planId } });
    expect(outcomes[1]).toMatchObject({ reply: { conclusion: 'go' } });
    expect(session.stypes).toEqual([
      'org.agent.TaskPlan.v1',
      'ai.agent.Reasoning.v1',
      'org.agent.ToolResult.v1',
    ]);
  });

  it('stops when its signal aborts', async () => {
    const session = await new MplClient('http://127.0.0.1:1').createSession();
    const controller = new AbortController();
    let handled = 0;
    session.onMessage('x.y.Z.v1', () => {
      handled += 1;
      controller.abort();
    });
    const summary = await session.run({
      signal: controller.signal,
      source: from([delivered('x.y.Z.v1', {}), delivered('x.y.Z.v1', {}, 2)]),
    });
    expect(handled).toBe(1);
    expect(summary.handled).toBe(1);
  });
});
