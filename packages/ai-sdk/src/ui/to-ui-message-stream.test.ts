import { type AgentEvent, createAgent } from '@mtpx/agent';
import { type ScriptedTurn, scriptedProvider } from '@mtpx/providers/testing';
import { readUIMessageStream, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fromAiSdkTools } from '../tools/from-ai-sdk-tools';
import type { MtpxUIMessage } from './mtpx-data-parts';
import { toUIMessageStream, toUIMessageStreamResponse } from './to-ui-message-stream';
import type { MtpxUIMessageChunk } from './ui-chunk-writer';

const aiTools = {
  getLocation: tool({
    description: 'Where a person lives.',
    inputSchema: z.object({ name: z.string() }),
    execute: async ({ name }) => ({ name, city: 'Gotham City' }),
  }),
  getWeather: tool({
    description: 'The weather in a city.',
    inputSchema: z.object({ city: z.string() }),
    async *execute({ city }) {
      yield { state: 'loading' as const };
      yield { state: 'ready' as const, city, weather: 'rainy' };
    },
  }),
  saveNote: tool({
    description: 'Save a note.',
    inputSchema: z.object({ note: z.string() }),
    execute: async ({ note }) => ({ saved: note }),
  }),
  broken: tool({
    description: 'Always fails.',
    inputSchema: z.object({}),
    execute: async (): Promise<string> => {
      throw new Error('the service is down');
    },
  }),
};

async function agentOn(turns: ScriptedTurn[]) {
  const { tools } = await fromAiSdkTools(aiTools, { tools: { saveNote: { risk_level: 'write' } } });
  return createAgent({ provider: scriptedProvider(turns, { chunkSize: 8 }), tools });
}

/** Every message state `readUIMessageStream` gives, the last one is the finished message. */
async function read(stream: ReadableStream<MtpxUIMessageChunk>): Promise<MtpxUIMessage[]> {
  const messages: MtpxUIMessage[] = [];
  for await (const message of readUIMessageStream<MtpxUIMessage>({ stream })) {
    messages.push(structuredClone(message));
  }
  return messages;
}

async function collect<T>(stream: ReadableStream<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of stream) items.push(item);
  return items;
}

const chainTurns: ScriptedTurn[] = [
  {
    reasoning: 'Find the city first, then its weather.',
    toolCalls: [
      { id: 'call_1', name: 'getLocation', arguments: { name: 'Bruce Wayne' } },
      { id: 'call_2', name: 'getWeather', arguments: { city: { $ref: 'call_1', $path: '/city' } } },
      { id: 'call_3', name: 'saveNote', arguments: { note: 'asked about Bruce' } },
      { id: 'call_4', name: 'broken', arguments: {} },
    ],
  },
  { text: 'It is rainy in Gotham City.' },
];

describe('toUIMessageStream', () => {
  it('reads back with readUIMessageStream as the parts useChat renders', async () => {
    const agent = await agentOn(chainTurns);
    const [forReading, forChunks] = toUIMessageStream(
      agent.stream('Weather where Bruce Wayne lives?'),
    ).tee();
    const [messages, chunks] = await Promise.all([read(forReading), collect(forChunks)]);
    // each call's input is sent once, as the tool gets it (as streamText sends it)
    const inputs = chunks.flatMap((chunk) =>
      chunk.type === 'tool-input-available' ? [[chunk.toolCallId, chunk.input]] : [],
    );
    // (in the order they became known, which depends on timing)
    expect(inputs.sort(([a], [b]) => String(a).localeCompare(String(b)))).toEqual([
      ['call_1', { name: 'Bruce Wayne' }],
      ['call_2', { city: 'Gotham City' }],
      ['call_3', { note: 'asked about Bruce' }],
      ['call_4', {}],
    ]);
    const message = messages.at(-1);
    const parts = message?.parts ?? [];
    const shown = parts.filter((part) => !part.type.startsWith('data-'));
    expect(shown.map((part) => part.type)).toEqual([
      'step-start',
      'reasoning',
      'tool-getLocation',
      'tool-getWeather',
      'tool-saveNote',
      'tool-broken',
      'step-start',
      'text',
    ]);
    expect(shown[1]).toMatchObject({
      text: 'Find the city first, then its weather.',
      state: 'done',
    });
    expect(shown[2]).toMatchObject({
      toolCallId: 'call_1',
      state: 'output-available',
      input: { name: 'Bruce Wayne' },
      output: { name: 'Bruce Wayne', city: 'Gotham City' },
    });
    // the $ref shown as what it points at, the final (not preliminary) output
    expect(shown[3]).toMatchObject({
      toolCallId: 'call_2',
      state: 'output-available',
      input: { city: 'Gotham City' },
      output: { state: 'ready', city: 'Gotham City', weather: 'rainy' },
    });
    expect((shown[3] as { preliminary?: boolean }).preliminary).not.toBe(true);
    expect(shown[5]).toMatchObject({
      toolCallId: 'call_4',
      state: 'output-error',
      errorText: expect.stringContaining('the service is down'),
    });
    expect(shown[7]).toMatchObject({
      type: 'text',
      text: 'It is rainy in Gotham City.',
      state: 'done',
    });

    // MTPX's extra facts: the edge, and each call's data part (one per call, updated in place)
    const edges = parts.filter((part) => part.type === 'data-mtpx-edge');
    expect(edges).toEqual([
      {
        type: 'data-mtpx-edge',
        id: 'call_1->call_2',
        data: expect.objectContaining({
          from: 'call_1',
          to: 'call_2',
          kind: '$ref',
          path: '/city',
        }),
      },
    ]);
    const calls = parts.flatMap((part) => (part.type === 'data-mtpx-call' ? [part.data] : []));
    expect(calls.map((call) => [call.callId, call.status])).toEqual([
      ['call_1', 'succeeded'],
      ['call_2', 'succeeded'],
      ['call_3', 'succeeded'],
      ['call_4', 'failed'],
    ]);
    expect(calls[1]).toMatchObject({
      references: ['call_1'],
      arguments: { city: { $ref: 'call_1', $path: '/city' } },
    });
    // a read-only call starts while the model writes; the write waits for the turn's end
    expect(calls[0]).toMatchObject({ startedDuringStream: true, held: false });
    expect(calls[2]).toMatchObject({ startedDuringStream: false, held: true });
    expect(calls[2]?.heldReason).toEqual(expect.any(String));
    const run = parts.find((part) => part.type === 'data-mtpx-run');
    expect(run?.data).toMatchObject({ provider: 'scripted', stopReason: 'final' });

    // on the way: the tool input streamed, then the $ref input, then a preliminary output
    const weatherStates = messages.flatMap((each) =>
      each.parts.flatMap((part) =>
        part.type === 'tool-getWeather'
          ? [`${part.state}${'preliminary' in part && part.preliminary ? ' (preliminary)' : ''}`]
          : [],
      ),
    );
    expect(weatherStates).toContain('input-streaming');
    expect(weatherStates).toContain('output-available (preliminary)');
    expect(weatherStates.at(-1)).toBe('output-available');
  });

  it('shows a call the model never finished writing, and a write of a turn cut short, as never run', async () => {
    const agent = await agentOn([
      {
        toolCalls: [
          { id: 'call_1', name: 'getLocation', arguments: { name: 'Clark Kent' } },
          { id: 'call_2', name: 'saveNote', arguments: { note: 'never saved' } },
        ],
        finishReason: 'length',
      },
      { text: 'Sorry, I ran out of room.' },
    ]);
    const messages = await read(toUIMessageStream(agent.stream('Where does Clark live?')));
    const parts = messages.at(-1)?.parts ?? [];
    const save = parts.find((part) => part.type === 'tool-saveNote');
    expect(save).toMatchObject({ state: 'output-error', input: { note: 'never saved' } });
    const data = parts.flatMap((part) => (part.type === 'data-mtpx-call' ? [part.data] : []));
    expect(data.find((call) => call.callId === 'call_2')).toMatchObject({
      held: true,
      status: 'skipped',
    });
    expect(parts.find((part) => part.type === 'tool-getLocation')).toMatchObject({
      state: 'output-available',
    });
  });

  it('cancels the run when the stream is cancelled (the browser went away)', async () => {
    let toolSignal: AbortSignal | undefined;
    const { tools } = await fromAiSdkTools({
      waitForever: tool({
        description: 'Waits until cancelled.',
        inputSchema: z.object({}),
        execute: (_input, { abortSignal }) =>
          new Promise<string>((_resolve, reject) => {
            toolSignal = abortSignal;
            abortSignal?.addEventListener('abort', () => reject(abortSignal.reason));
          }),
      }),
    });
    const agent = createAgent({
      provider: scriptedProvider([{ toolCalls: [{ id: 'call_1', name: 'waitForever' }] }]),
      tools,
    });
    const run = agent.stream('wait');
    const reader = toUIMessageStream(run).getReader();
    for (;;) {
      const next = await reader.read();
      if (next.done) throw new Error('the stream ended before the call started');
      if (next.value.type === 'data-mtpx-call' && next.value.data.status === 'running') break;
    }
    await reader.cancel('gone');
    const output = await run.result;
    expect(output.stopReason).toBe('cancelled');
    expect(toolSignal?.aborted).toBe(true);
  });

  it('sends dynamic tools as dynamic-tool parts, as streamText does', async () => {
    const agent = await agentOn([
      { toolCalls: [{ id: 'call_1', name: 'getLocation', arguments: { name: 'Bruce Wayne' } }] },
      { text: 'Gotham City.' },
    ]);
    const messages = await read(
      toUIMessageStream(agent.stream('Where?'), {
        dynamicTools: (name) => name === 'getLocation',
      }),
    );
    expect(messages.at(-1)?.parts.find((part) => part.type === 'dynamic-tool')).toMatchObject({
      toolName: 'getLocation',
      state: 'output-available',
      input: { name: 'Bruce Wayne' },
      output: { name: 'Bruce Wayne', city: 'Gotham City' },
    });
  });

  it('ends with an error chunk when the run fails', async () => {
    const agent = createAgent({
      provider: scriptedProvider(() => {
        throw new Error('model unavailable');
      }),
      tools: [],
    });
    const chunks: MtpxUIMessageChunk[] = [];
    const reader = toUIMessageStream(agent.stream('hi'), {
      onError: (error) => `failed: ${error instanceof Error ? error.message : String(error)}`,
    }).getReader();
    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      chunks.push(next.value);
    }
    expect(chunks[0]).toMatchObject({ type: 'start' });
    expect(chunks.at(-1)).toEqual({ type: 'error', errorText: 'failed: model unavailable' });
    await agent.stream('again').result.catch(() => undefined);
  });

  it('sends a whole text part for a turn that did not stream, and marks no call as started during it (run() events)', async () => {
    const agent = await agentOn([
      { toolCalls: [{ id: 'call_1', name: 'getLocation', arguments: { name: 'Bruce Wayne' } }] },
      { text: 'Hello there.' },
    ]);
    const events: AgentEvent[] = [];
    await agent.run('hi', { onEvent: (event) => events.push(event) });
    async function* replay() {
      yield* events;
    }
    const parts = (await read(toUIMessageStream(replay()))).at(-1)?.parts ?? [];
    const text = parts.filter((part) => part.type === 'text');
    expect(text).toEqual([expect.objectContaining({ text: 'Hello there.', state: 'done' })]);
    expect(parts.find((part) => part.type === 'tool-getLocation')).toMatchObject({
      state: 'output-available',
      input: { name: 'Bruce Wayne' },
    });
    // the model's turn was whole before the call started
    const call = parts.find((part) => part.type === 'data-mtpx-call');
    expect(call?.data).toMatchObject({ callId: 'call_1', startedDuringStream: false });
  });
});

describe('toUIMessageStreamResponse', () => {
  it('frames the stream as createUIMessageStreamResponse does (SSE, the v1 header)', async () => {
    const agent = await agentOn([{ text: 'Hi!' }]);
    const response = toUIMessageStreamResponse(agent.stream('hi'), { headers: { 'x-run': '1' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
    expect(response.headers.get('x-run')).toBe('1');
    const lines = (await response.text()).split('\n').filter((line) => line !== '');
    expect(lines[0]).toMatch(/^data: \{"type":"start"/);
    expect(lines).toContain(
      `data: {"type":"text-delta","id":${JSON.stringify(textId(lines))},"delta":"Hi!"}`,
    );
    expect(lines.at(-2)).toBe('data: {"type":"finish","finishReason":"stop"}');
    expect(lines.at(-1)).toBe('data: [DONE]');
  });
});

function textId(lines: string[]): string {
  const start = lines.find((line) => line.includes('"type":"text-start"')) ?? '';
  return (JSON.parse(start.slice('data: '.length)) as { id: string }).id;
}
