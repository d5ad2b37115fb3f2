import { type AgentEvent, createAgent } from '@mtpx/agent';
import { calculatorToolkit } from '@mtpx/executor/toolkits';
import { type ScriptedTurn, scriptedProvider } from '@mtpx/providers/testing';
import type { RecordedEvent } from '../record/recorded-event';

/** The seed's chain (1 → 2 → 3 → 4) and an independent pair (5 → 6), in one response. */
export const seedRound: ScriptedTurn = {
  toolCalls: [
    { id: 'call_1', name: 'calculator.subtract', arguments: { a: 18, b: 6 } },
    { id: 'call_2', name: 'calculator.multiply', arguments: { a: 4, b: { $ref: 'call_1' } } },
    { id: 'call_3', name: 'calculator.divide', arguments: { a: { $ref: 'call_2' }, b: 3 } },
    { id: 'call_4', name: 'calculator.add', arguments: { a: 15, b: { $ref: 'call_3' } } },
    { id: 'call_5', name: 'calculator.add', arguments: { a: 1, b: 2 } },
    { id: 'call_6', name: 'calculator.multiply', arguments: { a: { $ref: 'call_5' }, b: 2 } },
  ],
  usage: { inputTokens: 100, outputTokens: 40, totalTokens: 140, reasoningTokens: 8 },
};

/** A streamed run of {@link seedRound} and an answer, its events as a recorder keeps them. */
export async function seedRunEvents(
  options: { onEvent?: (event: AgentEvent) => void } = {},
): Promise<RecordedEvent[]> {
  const events: RecordedEvent[] = [];
  const agent = createAgent({
    provider: scriptedProvider(
      [seedRound, { text: '31', usage: { inputTokens: 150, outputTokens: 2, totalTokens: 152 } }],
      { chunkDelayMs: 2, chunkSize: 24 },
    ),
    tools: [calculatorToolkit()],
  });
  await agent.stream('What is 15 + (4 × (18 − 6)) / 3?', {
    runId: 'run_seed',
    onEvent: (event) => {
      events.push(JSON.parse(JSON.stringify(event)) as RecordedEvent);
      options.onEvent?.(event);
    },
  }).result;
  return events;
}
