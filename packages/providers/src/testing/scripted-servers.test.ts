import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { collect, trace } from '../__fixtures__/collect';
import { calculatorTools } from '../__fixtures__/fixtures';
import { createAnthropicProvider } from '../anthropic/anthropic-provider';
import { createOpenAIProvider } from '../openai/openai-provider';
import { createOpenAIResponsesProvider } from '../openai-responses/responses-provider';
import { type ModelServer, startModelServer } from './model-server';
import { startScriptedAnthropicServer, startScriptedOpenAIServer } from './scripted-servers';

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const turns = [
  {
    toolCalls: [
      { id: 'call_1', name: 'calculator.subtract', arguments: { a: 18, b: 6 } },
      { id: 'call_2', name: 'calculator.multiply', arguments: { a: 4, b: { $ref: 'call_1' } } },
    ],
  },
  { text: 'The answer is 48.' },
];
const request = {
  messages: [{ role: 'user' as const, content: 'Compute.' }],
  tools: calculatorTools,
};

describe('startScriptedOpenAIServer', () => {
  it('plays a scripted model to a real openai client, streamed or whole, with offered tool names', async () => {
    server = await startScriptedOpenAIServer(turns, {
      chunkSize: 5,
      firstByteDelayMs: 1,
      chunkDelayMs: 1,
    });
    const provider = createOpenAIProvider({
      model: 'scripted',
      apiKey: 'test',
      baseURL: `${server.url}/v1`,
    });
    const { events, error } = await collect(provider.stream(request));
    expect(error).toBeUndefined();
    expect(trace(events).filter((line) => line.startsWith('ready'))).toEqual([
      'ready 0 call_1 calculator.subtract {"a":18,"b":6}',
      'ready 1 call_2 calculator.multiply {"a":4,"b":{"$ref":"call_1"}}',
    ]);
    expect(events.at(-2)?.type).toBe('usage');
    const second = await provider.generate(request);
    expect(second.message.content).toBe('The answer is 48.');
    expect(server.requests.map((recorded) => recorded.path)).toEqual([
      '/v1/chat/completions',
      '/v1/chat/completions',
    ]);
  });

  it('answers a request past the end of the script with a clear, non-retried error', async () => {
    server = await startScriptedOpenAIServer([]);
    const client = new OpenAI({ apiKey: 'test', baseURL: `${server.url}/v1`, maxRetries: 2 });
    const error = await client.chat.completions
      .create({ model: 'scripted', messages: [{ role: 'user', content: 'Hi' }] })
      .catch((caught) => caught);
    expect(error.status).toBe(500);
    expect(error.message).toContain('the script holds 0 turn(s)');
    expect(server.requests).toHaveLength(1);
  });
});

describe('startScriptedAnthropicServer', () => {
  it('plays a scripted model to a real Anthropic client', async () => {
    server = await startScriptedAnthropicServer(turns, { chunkSize: 7 });
    const provider = createAnthropicProvider({
      model: 'claude-sonnet-4-6',
      apiKey: 'test',
      baseURL: server.url,
    });
    const { events, error } = await collect(provider.stream(request));
    expect(error).toBeUndefined();
    expect(trace(events).filter((line) => line.startsWith('ready'))).toEqual([
      'ready 0 call_1 calculator.subtract {"a":18,"b":6}',
      'ready 1 call_2 calculator.multiply {"a":4,"b":{"$ref":"call_1"}}',
    ]);
    const client = new Anthropic({ apiKey: 'test', baseURL: server.url });
    const message = await client.messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(message.content).toEqual([{ type: 'text', text: 'The answer is 48.' }]);
  });
});

describe('startModelServer', () => {
  it('records requests and serves raw SSE events with names and multi-line data', async () => {
    server = await startModelServer({
      responses: [{ type: 'sse', events: [{ event: 'greeting', data: 'one\ntwo' }, 'three'] }],
    });
    const response = await fetch(`${server.url}/anything?x=1`, {
      method: 'POST',
      body: '{"hello":"world"}',
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(await response.text()).toBe('event: greeting\ndata: one\ndata: two\n\ndata: three\n\n');
    expect(server.requests[0]).toMatchObject({
      method: 'POST',
      path: '/anything?x=1',
      body: { hello: 'world' },
    });
  });

  it('streams events from an async iterable, at the pace the test feeds them', async () => {
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    async function* events() {
      yield 'first';
      await released;
      yield 'second';
    }
    server = await startModelServer({ responses: [{ type: 'sse', events: events() }] });
    const response = await fetch(server.url, { method: 'POST', body: '{}' });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    // The first event, in however many chunks it arrives, before the second is released.
    let first = '';
    while (first.length < 'data: first\n\n'.length) {
      const chunk = await reader.read();
      if (chunk.done) break;
      first += decoder.decode(chunk.value, { stream: true });
    }
    expect(first).toBe('data: first\n\n');
    release();
    let rest = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      rest += decoder.decode(chunk.value, { stream: true });
    }
    expect(rest).toBe('data: second\n\n');
  });

  it('closes while an async event source is still waiting', async () => {
    async function* events() {
      yield 'first';
      await new Promise(() => {});
    }
    server = await startModelServer({ responses: [{ type: 'sse', events: events() }] });
    const response = await fetch(server.url, { method: 'POST', body: '{}' });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    await server.close();
    server = undefined;
    await expect(reader.read()).rejects.toThrow();
  });

  it('keeps a body that is not JSON as text', async () => {
    server = await startModelServer({
      responses: () => ({ type: 'json', body: { ok: true }, status: 201 }),
    });
    const response = await fetch(server.url, { method: 'POST', body: 'not json' });
    expect(response.status).toBe(201);
    expect(server.requests[0]?.body).toBe('not json');
  });
});

describe('startModelServer delays', () => {
  it('stops a delayed answer when the client cancels, and closes without waiting for it', async () => {
    server = await startModelServer({ responses: [{ type: 'json', body: {}, delayMs: 60_000 }] });
    const controller = new AbortController();
    const pending = fetch(server.url, { method: 'POST', body: '{}', signal: controller.signal });
    await expect.poll(() => server?.requests.length).toBe(1);
    controller.abort();
    await expect(pending).rejects.toThrow();
    await server.close();
    server = undefined;
  });
});

describe('startScriptedOpenAIServer on the Responses wire', () => {
  it('answers POST /v1/responses with the scripted turns, streamed and whole', async () => {
    server = await startScriptedOpenAIServer([
      { reasoning: 'Subtract first.', ...turns[0] },
      turns[1] ?? {},
      turns[1] ?? {},
    ]);
    const provider = createOpenAIResponsesProvider({
      model: 'gpt-5',
      apiKey: 'sk-test',
      baseURL: `${server.url}/v1`,
      maxRetries: 0,
    });
    const { events, error } = await collect(provider.stream(request));
    expect(error).toBeUndefined();
    expect(
      trace(events).filter((line) => line.startsWith('ready') || line.startsWith('reasoning')),
    ).toEqual([
      'reasoning "Subtract first."',
      'ready 0 call_1 calculator.subtract {"a":18,"b":6}',
      'ready 1 call_2 calculator.multiply {"a":4,"b":{"$ref":"call_1"}}',
    ]);
    const finish = events.at(-1);
    const message = finish?.type === 'finish' ? finish.turn.message : undefined;
    const followUp = {
      ...request,
      messages: [
        ...request.messages,
        ...(message === undefined ? [] : [message]),
        {
          role: 'tool' as const,
          tool_call_id: 'call_1',
          name: 'calculator.subtract',
          content: '12',
        },
        {
          role: 'tool' as const,
          tool_call_id: 'call_2',
          name: 'calculator.multiply',
          content: '48',
        },
      ],
    };
    expect((await collect(provider.stream(followUp))).events.at(-1)).toMatchObject({
      type: 'finish',
      turn: { message: { content: 'The answer is 48.' }, finishReason: 'stop' },
    });
    expect((await provider.generate(followUp)).message.content).toBe('The answer is 48.');
    expect(server.requests.map((each) => each.path)).toEqual([
      '/v1/responses',
      '/v1/responses',
      '/v1/responses',
    ]);
    expect(
      (
        (server.requests[1]?.body ?? { input: [] }) as { input: Array<{ type?: string }> }
      ).input.map((item) => item.type),
    ).toEqual([
      undefined,
      'item_reference',
      'function_call',
      'function_call',
      'function_call_output',
      'function_call_output',
    ]);
  });

  it('refuses, as the API does, a call sent back without the reasoning that preceded it', async () => {
    server = await startScriptedOpenAIServer([
      { reasoning: 'Subtract first.', ...turns[0] },
      turns[1] ?? {},
    ]);
    const provider = createOpenAIResponsesProvider({
      model: 'gpt-5',
      apiKey: 'sk-test',
      baseURL: `${server.url}/v1`,
      maxRetries: 0,
      store: false,
    });
    const first = await provider.generate(request);
    expect(first.message.provider_parts?.[0]?.data).toMatchObject({
      type: 'reasoning',
      encrypted_content: expect.stringMatching(/^gAAAAB/),
    });
    const message = {
      ...first.message,
      provider_parts: first.message.provider_parts?.filter((part) => part.type !== 'reasoning'),
    };
    const caught = await provider
      .generate({
        ...request,
        messages: [
          ...request.messages,
          message,
          {
            role: 'tool' as const,
            tool_call_id: 'call_1',
            name: 'calculator.subtract',
            content: '12',
          },
          {
            role: 'tool' as const,
            tool_call_id: 'call_2',
            name: 'calculator.multiply',
            content: '48',
          },
        ],
      })
      .catch((error: unknown) => error);
    expect(caught).toMatchObject({
      status: 400,
      providerMessage:
        "Item 'fc_scripted_1_1' of type 'function_call' was provided without its required 'reasoning' item: 'rs_scripted_1'.",
    });
  });
});
