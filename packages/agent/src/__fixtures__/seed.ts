import type { ScriptedTurn, SseEvent } from '@mtpx/providers/testing';
import type { AgentEvent, AgentStream, RunOutput } from '../index';

/** The seed's question: 15 + (4 × (18 − 6)) / 3. */
export const seedQuestion = 'What is 15 + (4 × (18 − 6)) / 3?';

/** Call ids the way OpenAI assigns them. */
export const openAIIds = [
  'call_Qm8kX2vLr4TnB7pD1sYw3Ha',
  'call_Zr5cN1wQe8JtV3xK6mLp0Fb',
  'call_H2dT9yBn4RkW7qS1vXc5Mg',
  'call_P6fJ3uLa0GzE8nY2tKr7Dq',
];

/** Call ids the way Anthropic assigns them. */
export const anthropicIds = [
  'toolu_01A09q90qw90lq917835lq9',
  'toolu_01BfZc3nV7pQ2wX8kR4tYm6',
  'toolu_01CgT5hJ9sL1dM3vN7bW2xK',
  'toolu_01DkP8rF4aQ6eU0yH2cZ9sJ',
];

/**
 * The seed's four calls in ONE response, with the ids an API assigned and the model's
 * references written as positional aliases (`call_1` = the first call of the response).
 */
export function seedTurn(ids: readonly string[] = ['call_1', 'call_2', 'call_3', 'call_4']): ScriptedTurn {
  return {
    toolCalls: [
      { id: ids[0], name: 'calculator.subtract', arguments: { a: 18, b: 6 } },
      { id: ids[1], name: 'calculator.multiply', arguments: { a: 4, b: { $ref: 'call_1' } } },
      { id: ids[2], name: 'calculator.divide', arguments: { a: { $ref: 'call_2' }, b: 3 } },
      { id: ids[3], name: 'calculator.add', arguments: { a: 15, b: { $ref: 'call_3' } } },
    ],
    usage: { inputTokens: 900, outputTokens: 120, totalTokens: 1020 },
  };
}

/** The model's answer once it has the four results. */
export const finalTurn: ScriptedTurn = {
  text: '15 + (4 × (18 − 6)) / 3 = 31.',
  usage: { inputTokens: 1100, outputTokens: 20, totalTokens: 1120 },
};

/** Every event of a streamed run, and how it ended. */
export async function collect(
  stream: AgentStream,
): Promise<{ events: AgentEvent[]; output?: RunOutput; error?: unknown }> {
  const events: AgentEvent[] = [];
  for await (const event of stream) events.push(event);
  try {
    return { events, output: await stream.result };
  } catch (error) {
    return { events, error };
  }
}

/**
 * A compact trace of the events that show scheduling: `ready <id>`, `start <id>`,
 * `finish <id>`, `skip <id> <code>`, rounds and the end.
 */
export function trace(events: readonly AgentEvent[]): string[] {
  const lines: string[] = [];
  for (const event of events) {
    switch (event.type) {
      case 'round-started':
        lines.push(`round ${event.round}`);
        break;
      case 'tool-call-ready':
        lines.push(`ready ${event.toolCall.id}${event.refused ? ' refused' : ''}`);
        break;
      case 'call-started':
        lines.push(`start ${event.callId}`);
        break;
      case 'call-finished':
        lines.push(
          `finish ${event.callId} ${event.success ? JSON.stringify(event.result.output) : event.errorCode}`,
        );
        break;
      case 'call-skipped':
        lines.push(`skip ${event.callId} ${event.errorCode}`);
        break;
      case 'round-finished':
        lines.push(`round ${event.round} done (${event.finishReason})`);
        break;
      case 'run-finished':
        lines.push(`run finished: ${event.output.stop_reason}`);
        break;
      case 'run-cancelled':
        lines.push('run cancelled');
        break;
      case 'run-failed':
        lines.push(`run failed: ${event.code ?? event.message}`);
        break;
      default:
        break;
    }
  }
  return lines;
}

/** The position of the first event that matches, or -1. */
export function positionOf(
  events: readonly AgentEvent[],
  matches: (event: AgentEvent) => boolean,
): number {
  return events.findIndex(matches);
}

/**
 * The events of a stream, holding back everything from the first event `holdAt` accepts
 * until `gate` resolves: the test decides when the model "writes" the rest.
 */
export async function* heldBack(
  events: readonly SseEvent[],
  holdAt: (event: SseEvent) => boolean,
  gate: Promise<unknown>,
): AsyncGenerator<SseEvent> {
  let held = false;
  for (const event of events) {
    if (!held && holdAt(event)) {
      held = true;
      await gate;
    }
    yield event;
  }
}

/** A promise with its resolve function. */
export function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => {};
  const promise = new Promise<void>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}
