import type { ModelServer } from '@mtpx/providers/testing';
import { openAIChatCompletionChunks } from '@mtpx/providers/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { startPacedOpenAIServer, toolCallsOneByOne, wholeTurnAt } from './paced-openai-server';
import { streamingScript } from './scenarios';

const [lookups, answer] = streamingScript as [
  (typeof streamingScript)[0],
  (typeof streamingScript)[1],
];

function deltaOf(data: string) {
  return JSON.parse(data) as {
    choices: Array<{
      delta: { tool_calls?: Array<{ index: number; id?: string }> };
      finish_reason: string | null;
    }>;
  };
}

describe('toolCallsOneByOne', () => {
  it('completes one call per group, each with the start of the next, and ends with the last', () => {
    const groups = toolCallsOneByOne(lookups, 300, 100);
    expect(groups.map((group) => group.atMs)).toEqual([300, 400, 500, 600, 700]);
    // The first group: the role chunk, call 1 whole, call 2 started.
    const first = groups[0]?.events ?? [];
    expect(first).toHaveLength(4);
    expect(deltaOf(first[3] as string).choices[0]?.delta.tool_calls?.[0]).toMatchObject({
      index: 1,
      id: 'call_2',
    });
    // The last group: call 5's arguments, finish_reason, usage, [DONE].
    const last = groups[4]?.events ?? [];
    expect(last.at(-1)).toBe('[DONE]');
    expect(deltaOf(last[1] as string).choices[0]?.finish_reason).toBe('tool_calls');
  });

  it('sends exactly the events of the scripted turn, in order', () => {
    const events = toolCallsOneByOne(lookups, 0, 0).flatMap((group) => group.events);
    const expected = openAIChatCompletionChunks(lookups, { chunkSize: 1_000_000 });
    expect(events).toEqual(expected);
  });
});

describe('startPacedOpenAIServer', () => {
  let server: ModelServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const post = (body: unknown) =>
    fetch(`${server?.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('streams each turn as server-sent events and records the request', async () => {
    server = await startPacedOpenAIServer([wholeTurnAt(answer, 0)]);
    const response = await post({ stream: true, messages: [{ role: 'user', content: 'Hi' }] });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const text = await response.text();
    const data = text
      .split('\n\n')
      .filter((block) => block.startsWith('data: '))
      .map((block) => block.slice('data: '.length));
    expect(data).toEqual(wholeTurnAt(answer, 0)[0]?.events);
    expect(server.requests.map((request) => request.body)).toEqual([
      { stream: true, messages: [{ role: 'user', content: 'Hi' }] },
    ]);
  });

  it('answers 500 past the end of the script, or to a request that does not stream', async () => {
    server = await startPacedOpenAIServer([wholeTurnAt(answer, 0)]);
    expect((await post({ stream: false })).status).toBe(500);
    expect((await post({ stream: true })).status).toBe(500);
  });
});
