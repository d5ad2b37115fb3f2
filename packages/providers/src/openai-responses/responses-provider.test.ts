import type { Message, ProviderEvent, ToolSpec } from '@mtpx/protocol';
import { describe, expect, it } from 'vitest';
import { collect } from '../__fixtures__/collect';
import { modelServerPerTest } from '../__fixtures__/model-server-per-test';
import { asSse, eventsFromResponse, recordedStreams } from '../__fixtures__/responses-recordings';
import { ProviderError } from '../provider-error';
import type { SseEvent } from '../testing/model-server';
import {
  createOpenAIResponsesProvider,
  type OpenAIResponsesProviderOptions,
} from './responses-provider';

type Json = Record<string, unknown>;
const server = modelServerPerTest();
const tool = (name: string, risk: ToolSpec['risk_level'] = 'read_only'): ToolSpec => ({
  name,
  description: `The ${name} tool.`,
  input_schema: { type: 'object', properties: { q: { type: 'string' } } },
  tags: [],
  risk_level: risk,
});
const provider = (url: string, options: Partial<OpenAIResponsesProviderOptions> = {}) =>
  createOpenAIResponsesProvider({
    model: 'gpt-5',
    apiKey: 'sk-test',
    baseURL: `${url}/v1`,
    maxRetries: 0,
    ...options,
  });
const user: Message[] = [{ role: 'user', content: 'Hi' }];
const response = (output: Json[], extra: Json = {}): Json => ({
  id: 'resp_1',
  object: 'response',
  model: 'gpt-5',
  status: 'completed',
  output,
  usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15 },
  ...extra,
});
const call = (id: string, name: string, args: string, index = 0): Json => ({
  type: 'function_call',
  id: `fc_${index}`,
  call_id: id,
  name,
  arguments: args,
  status: 'completed',
});

describe('createOpenAIResponsesProvider: the request', () => {
  it('sends the options as the Responses API names them, and body fields through', async () => {
    const { url } = await server.start([{ type: 'json', body: response([]) }]);
    await provider(url, {
      reasoningEffort: 'low',
      reasoningSummary: 'auto',
      store: false,
      promptCacheKey: 'calc-v1',
      serviceTier: 'flex',
      parallelToolCalls: false,
      maxOutputTokens: 2000,
      strictTools: true,
      body: { metadata: { run: 'r1' }, include: ['web_search_call.action.sources'] },
    }).generate({
      messages: [{ role: 'system', content: 'Be brief.' }, ...user],
      tools: [tool('calculator.add')],
    });
    expect(server.requests[0]?.path).toBe('/v1/responses');
    expect(server.requests[0]?.body).toMatchInlineSnapshot(`
      {
        "include": [
          "web_search_call.action.sources",
          "reasoning.encrypted_content",
        ],
        "input": [
          {
            "content": "Be brief.",
            "role": "system",
          },
          {
            "content": "Hi",
            "role": "user",
          },
        ],
        "max_output_tokens": 2000,
        "metadata": {
          "run": "r1",
        },
        "model": "gpt-5",
        "parallel_tool_calls": false,
        "prompt_cache_key": "calc-v1",
        "reasoning": {
          "effort": "low",
          "summary": "auto",
        },
        "service_tier": "flex",
        "store": false,
        "stream": false,
        "tools": [
          {
            "description": "The calculator.add tool.",
            "name": "calculator_add",
            "parameters": {
              "additionalProperties": false,
              "properties": {
                "q": {
                  "type": [
                    "string",
                    "null",
                  ],
                },
              },
              "required": [
                "q",
              ],
              "type": "object",
            },
            "strict": true,
            "type": "function",
          },
        ],
      }
    `);
  });

  it('sends strict: false for tools by default (the API would make them strict)', async () => {
    const { url } = await server.start([{ type: 'json', body: response([]) }]);
    await provider(url).generate({ messages: user, tools: [tool('lookup')] });
    const body = server.requests[0]?.body as Json;
    expect(body.store).toBe(true);
    expect(body.include).toBeUndefined();
    expect((body.tools as Json[])[0]).toMatchObject({ name: 'lookup', strict: false });
  });

  it('chains with previous_response_id when asked: only what came after the last response', async () => {
    const { url } = await server.start([
      { type: 'json', body: response([call('call_1', 'lookup', '{"q":"a"}')]) },
      { type: 'json', body: response([], { id: 'resp_2' }) },
    ]);
    const chained = provider(url, { previousResponseId: true });
    const first = await chained.generate({ messages: user, tools: [tool('lookup')] });
    await chained.generate({
      messages: [
        ...user,
        first.message,
        { role: 'tool', tool_call_id: 'call_1', name: 'lookup', content: 'A' },
      ],
      tools: [tool('lookup')],
    });
    const body = server.requests[1]?.body as Json;
    expect(body.previous_response_id).toBe('resp_1');
    expect(body.input).toEqual([{ type: 'function_call_output', call_id: 'call_1', output: 'A' }]);
  });

  it('sends a turn of another provider as text and function calls', async () => {
    const { url } = await server.start([{ type: 'json', body: response([]) }]);
    await provider(url).generate({
      messages: [
        ...user,
        {
          role: 'assistant',
          content: 'Looking.',
          tool_calls: [{ id: 'call_9', name: 'lookup', arguments: { q: 'x' }, depends_on: [] }],
          provider_parts: [
            { provider: 'anthropic', type: 'thinking', data: { thinking: 'hm' }, index: 0 },
          ],
        },
        { role: 'tool', tool_call_id: 'call_9', name: 'lookup', content: 'X' },
      ],
      tools: [tool('lookup')],
    });
    expect(((server.requests[0]?.body ?? {}) as Json).input).toEqual([
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Looking.' },
      { type: 'function_call', call_id: 'call_9', name: 'lookup', arguments: '{"q":"x"}' },
      { type: 'function_call_output', call_id: 'call_9', output: 'X' },
    ]);
  });
});

describe('createOpenAIResponsesProvider: the answer', () => {
  it('an incomplete response (max_output_tokens) finishes with length; content_filter with content_filter', async () => {
    const { url } = await server.start([
      {
        type: 'json',
        body: response([call('call_1', 'lookup', '{"q":"a"}')], {
          status: 'incomplete',
          incomplete_details: { reason: 'max_output_tokens' },
        }),
      },
      {
        type: 'json',
        body: response([], {
          status: 'incomplete',
          incomplete_details: { reason: 'content_filter' },
        }),
      },
    ]);
    const answer = provider(url);
    expect((await answer.generate({ messages: user, tools: [tool('lookup')] })).finishReason).toBe(
      'length',
    );
    expect((await answer.generate({ messages: user, tools: [] })).finishReason).toBe(
      'content_filter',
    );
  });

  it('a refusal is a refusal, and no call of it is reported ready', async () => {
    const body = response([
      {
        type: 'message',
        id: 'msg_1',
        role: 'assistant',
        content: [{ type: 'refusal', refusal: 'I can’t help with that.' }],
      },
      call('call_1', 'lookup', '{"q":"a"}', 1),
    ]);
    const { url } = await server.start([{ type: 'sse', events: asSse(eventsFromResponse(body)) }]);
    const { events } = await collect(
      provider(url).stream({ messages: user, tools: [tool('lookup')] }),
    );
    expect(events.some((event) => event.type === 'tool-call-ready')).toBe(false);
    const finish = events.at(-1) as Extract<ProviderEvent, { type: 'finish' }>;
    expect(finish.turn.finishReason).toBe('refusal');
    expect(finish.turn.refusal).toBe('I can’t help with that.');
  });

  it('response.failed is a typed ProviderError with the API code (recorded)', async () => {
    const [failed] = recordedStreams('openai-error.1.chunks.txt');
    const withoutErrorEvent = (failed ?? []).filter((event) => event.type !== 'error');
    const { url } = await server.start([{ type: 'sse', events: asSse(withoutErrorEvent) }]);
    const { error } = await collect(provider(url).stream({ messages: user, tools: [] }));
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'api_error', providerCode: 'insufficient_quota' });
  });

  it('a stream cut before response.completed is stream_interrupted, and its open call never ready', async () => {
    const [events = []] = recordedStreams('openai-reasoning-encrypted-content.1.chunks.txt');
    const cut = events.slice(
      0,
      events.findIndex((event) => event.type === 'response.function_call_arguments.done'),
    );
    const { url } = await server.start([{ type: 'sse', events: asSse(cut), end: 'destroy' }]);
    const result = await collect(provider(url).stream({ messages: user, tools: [] }));
    expect((result.error as ProviderError).code).toBe('stream_interrupted');
    expect(result.events.some((event) => event.type === 'tool-call-ready')).toBe(false);
  });

  it('a server-run item is announced and kept, never a call', async () => {
    const [events = []] = recordedStreams('openai-web-search-tool.1.chunks.txt');
    const { url } = await server.start([{ type: 'sse', events: asSse(events) }]);
    const result = await collect(provider(url).stream({ messages: user, tools: [] }));
    const used = result.events.filter((event) => event.type === 'server-tool-used');
    expect(used.length).toBeGreaterThan(0);
    expect(
      used.every(
        (event) => event.type === 'server-tool-used' && event.blockType === 'web_search_call',
      ),
    ).toBe(true);
    const finish = result.events.at(-1) as Extract<ProviderEvent, { type: 'finish' }>;
    expect(finish.turn.message.tool_calls).toBeUndefined();
    expect(
      finish.turn.message.provider_parts?.filter((part) => part.server_tool !== undefined),
    ).toHaveLength(used.length);
  });
});

describe('createOpenAIResponsesProvider: eager readiness', () => {
  it('a call is ready while the rest of the recorded stream is still held back', async () => {
    const [events = []] = recordedStreams('openai-reasoning-encrypted-content.1.chunks.txt');
    const doneAt = events.findIndex(
      (event) =>
        event.type === 'response.output_item.done' && (event.item as Json).type === 'function_call',
    );
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    async function* gated(): AsyncGenerator<SseEvent> {
      yield* asSse(events.slice(0, doneAt + 1));
      await held;
      yield* asSse(events.slice(doneAt + 1));
    }
    const { url } = await server.start([{ type: 'sse', events: gated() }]);
    const seen: ProviderEvent[] = [];
    for await (const event of provider(url).stream({ messages: user, tools: [] })) {
      seen.push(event);
      // The call is ready before response.completed has been sent at all.
      if (event.type === 'tool-call-ready') {
        expect(event.toolCall).toMatchObject({
          id: 'call_AB6AaRZ1FYZB2RwS6A5vbdqn',
          arguments: { a: 12, b: 7, op: 'add' },
        });
        release();
      }
    }
    expect(seen.at(-1)?.type).toBe('finish');
    expect(seen.findIndex((event) => event.type === 'tool-call-ready')).toBeLessThan(
      seen.findIndex((event) => event.type === 'usage'),
    );
  });
});
