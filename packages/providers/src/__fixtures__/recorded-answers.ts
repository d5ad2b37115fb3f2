import type {
  Message,
  Provider,
  ProviderEvent,
  ProviderRequest,
  ProviderTurn,
  ToolSpec,
} from '@mtpx/protocol';
import { collect } from './collect';
import { anthropicEvents, jsonFixture, openAIChunks } from './fixtures';
import {
  anthropicContentOfEvents,
  anthropicEventsFromMessage,
  openAIChunksFromCompletion,
} from './recorded-wire';
import type { RecordedAnswer } from './replay-server';

type Json = Record<string, unknown>;

/** A recorded whole Messages API response: as JSON, or streamed as the API streams it. */
export function anthropicAnswer(name: string, mode: 'whole' | 'stream'): RecordedAnswer {
  const body = jsonFixture(`anthropic/${name}.json`) as Json;
  return mode === 'whole'
    ? { script: { type: 'json', body }, turn: body }
    : { script: { type: 'sse', events: anthropicEventsFromMessage(body) }, turn: body };
}

/** A recorded Messages API stream (`*.chunks.txt`). */
export function anthropicStreamAnswer(name: string): RecordedAnswer {
  const events = anthropicEvents(`anthropic/${name}.chunks.txt`);
  return { script: { type: 'sse', events }, turn: { content: anthropicContentOfEvents(events) } };
}

/** A recorded whole Chat Completions response: as JSON, or streamed as chunks. */
export function openAIAnswer(name: string, mode: 'whole' | 'stream'): RecordedAnswer {
  const body = jsonFixture(`openai/${name}.json`) as Json;
  const turn = ((body.choices as Json[])[0] as Json).message as Json;
  return mode === 'whole'
    ? { script: { type: 'json', body }, turn }
    : { script: { type: 'sse', events: openAIChunksFromCompletion(body) }, turn };
}

/** A recorded Chat Completions stream (`*.chunks.txt`), with the whole message it streams. */
export function openAIStreamAnswer(name: string, turn: Json): RecordedAnswer {
  return { script: { type: 'sse', events: openAIChunks(`openai/${name}.chunks.txt`) }, turn };
}

/** A tool spec with no parameters (recorded conversations name their own tools). */
export const toolNamed = (name: string): ToolSpec => ({
  name,
  description: `The ${name} tool.`,
  input_schema: { type: 'object', properties: {} },
  tags: [],
  risk_level: 'read_only',
});

/** One model call, whole or streamed; the turn and (streamed) every event. */
export async function modelCall(
  provider: Provider,
  request: ProviderRequest,
  mode: 'whole' | 'stream',
): Promise<{ turn: ProviderTurn; events: ProviderEvent[] }> {
  if (mode === 'whole') return { turn: await provider.generate(request), events: [] };
  const { events, error } = await collect(provider.stream(request));
  if (error !== undefined) throw error;
  const finish = events.at(-1);
  if (finish?.type !== 'finish') throw new Error('the stream ended without finish');
  return { turn: finish.turn, events };
}

/**
 * The agent loop in miniature: ask, answer every call with `results(name)`, ask again,
 * until the model answers without calls (at most `limit` calls).
 */
export async function toolRounds(
  provider: Provider,
  options: {
    question: string;
    tools: ToolSpec[];
    mode: 'whole' | 'stream';
    result: (toolName: string) => string;
    limit?: number;
  },
) {
  const messages: Message[] = [{ role: 'user', content: options.question }];
  const turns: ProviderTurn[] = [];
  const events: ProviderEvent[] = [];
  for (let call = 0; call < (options.limit ?? 3); call++) {
    const answer = await modelCall(
      provider,
      { messages, tools: options.tools },
      options.mode,
    );
    turns.push(answer.turn);
    events.push(...answer.events);
    messages.push(answer.turn.message);
    const calls = answer.turn.message.tool_calls ?? [];
    if (calls.length === 0) break;
    for (const toolCall of calls) {
      messages.push({
        role: 'tool',
        tool_call_id: toolCall.id,
        name: toolCall.name,
        content: options.result(toolCall.name),
      });
    }
  }
  return { turns, events, messages };
}
