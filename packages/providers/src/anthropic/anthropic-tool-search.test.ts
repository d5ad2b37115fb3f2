import type { Message, ToolSpec } from '@mtpx/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { anthropicEvents, jsonFixture } from '../__fixtures__/fixtures';
import { modelCall } from '../__fixtures__/recorded-answers';
import { anthropicDeferredToolsRule } from '../__fixtures__/tool-search-rules';
import { ProviderError } from '../provider-error';
import { anthropicMessage } from '../testing/anthropic-wire';
import {
  type ModelServer,
  type ResponseScript,
  type SseEvent,
  startModelServer,
} from '../testing/model-server';
import { createAnthropicProvider } from './anthropic-provider';

type Json = Record<string, unknown>;
let current: ModelServer | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
});

const spec = (name: string, description: string): ToolSpec => ({
  name,
  description,
  input_schema: { type: 'object', properties: { location: { type: 'string' } } },
  tags: [],
  risk_level: 'read_only',
});
/** The recording's deferred tools (vercel/ai's tool search example names these). */
const deferred = [
  spec('get_weather', 'Get the current weather at a specific location'),
  spec('search_files', 'Search through files in the workspace'),
  spec('send_email', 'Send an email to a recipient'),
];
const loaded = [spec('get_time', 'The current time.')];

/** A recorded stream of several messages, split at each `message_start`. */
function messagesOf(events: readonly SseEvent[]): SseEvent[][] {
  const messages: SseEvent[][] = [];
  for (const event of events) {
    if (typeof event !== 'string' && event.event === 'message_start') messages.push([]);
    messages.at(-1)?.push(event);
  }
  return messages;
}

const recorded = {
  whole: [
    { type: 'json', body: jsonFixture('anthropic/anthropic-tool-search-bm25.1.json') },
    { type: 'json', body: anthropicMessage({ text: 'San Francisco: 64°F, partly cloudy.' }) },
  ] as ResponseScript[],
  stream: messagesOf(anthropicEvents('anthropic/anthropic-tool-search-bm25.1.chunks.txt')).map(
    (events): ResponseScript => ({ type: 'sse', events }),
  ),
};

/** A server that refuses what the Messages API refuses of deferred tools, then answers in order. */
async function apiServer(answers: ResponseScript[]) {
  let next = 0;
  current = await startModelServer({
    responses: (request) =>
      anthropicDeferredToolsRule((request.body ?? {}) as Json) ??
      answers[next++] ?? { type: 'json', status: 500, body: { error: 'no answer left' } },
  });
  return current;
}

describe("Anthropic's tool search, passed through (recorded traffic)", () => {
  for (const mode of ['whole', 'stream'] as const) {
    it(`sends deferred tools with defer_loading and the search tool; keeps the search blocks and sends them back (${mode})`, async () => {
      const model = await apiServer(recorded[mode]);
      const provider = createAnthropicProvider({
        model: 'claude-sonnet-4-5',
        apiKey: 'sk-ant-test',
        baseURL: model.url,
        maxRetries: 0,
        toolSearch: 'bm25',
        promptCache: true,
      });
      expect(provider.nativeToolSearch).toBe(true);
      const messages: Message[] = [{ role: 'user', content: 'Weather in San Francisco?' }];
      const { turn } = await modelCall(
        provider,
        { messages, tools: loaded, deferredTools: deferred },
        mode,
      );
      const first = model.requests[0]?.body as Json;
      expect(first.tools).toEqual([
        {
          name: 'get_time',
          description: 'The current time.',
          input_schema: loaded[0]?.input_schema,
        },
        ...deferred.map((tool) => ({
          name: tool.name,
          description: tool.description,
          input_schema: tool.input_schema,
          defer_loading: true,
        })),
        {
          type: 'tool_search_tool_bm25_20251119',
          name: 'tool_search_tool_bm25',
          cache_control: { type: 'ephemeral' },
        },
      ]);
      expect(turn.message.tool_calls?.map((call) => [call.name, call.arguments])).toEqual([
        ['get_weather', { location: 'San Francisco, CA' }],
      ]);
      const serverParts = (turn.message.provider_parts ?? []).map((part) => part.type);
      expect(serverParts).toEqual(
        expect.arrayContaining(['server_tool_use', 'tool_search_tool_result']),
      );
      messages.push(turn.message, {
        role: 'tool',
        tool_call_id: turn.message.tool_calls?.[0]?.id as string,
        name: 'get_weather',
        content: '64°F, partly cloudy',
      });
      const second = await modelCall(
        provider,
        { messages, tools: loaded, deferredTools: deferred },
        mode,
      );
      expect(second.turn.message.content).toContain('San Francisco');
      const replayed = ((model.requests[1]?.body ?? {}) as { messages: Json[] })
        .messages[1] as Json;
      expect((replayed.content as Json[]).map((block) => block.type)).toEqual([
        'text',
        'server_tool_use',
        'tool_search_tool_result',
        'text',
        'tool_use',
      ]);
    });
  }

  it('the replay server refuses what the API refuses: every tool deferred, a cached deferred tool', async () => {
    expect(
      anthropicDeferredToolsRule({ tools: [{ name: 'a', defer_loading: true }] })?.body,
    ).toMatchObject({
      error: { message: expect.stringContaining('All tools cannot be deferred') },
    });
    expect(
      anthropicDeferredToolsRule({
        tools: [
          { name: 'a', defer_loading: true, cache_control: { type: 'ephemeral' } },
          { name: 'tool_search_tool_bm25', type: 'tool_search_tool_bm25_20251119' },
        ],
      })?.status,
    ).toBe(400);
    // Through the real SDK: such a request fails with the API's 400, not retried.
    const model = await apiServer([]);
    const provider = createAnthropicProvider({
      model: 'claude-sonnet-4-5',
      apiKey: 'sk-ant-test',
      baseURL: model.url,
      maxRetries: 0,
      body: { tools: [{ name: 'a', input_schema: { type: 'object' }, defer_loading: true }] },
    });
    const error = await provider
      .generate({ messages: [{ role: 'user', content: 'Hi' }], tools: [] })
      .catch((caught: unknown) => caught);
    expect(ProviderError.isInstance(error) && error.status).toBe(400);
  });

  it('without deferred tools, or without the option, the request is as before', async () => {
    const model = await apiServer([
      { type: 'json', body: anthropicMessage({ text: 'ok' }) },
      { type: 'json', body: anthropicMessage({ text: 'ok' }) },
    ]);
    const base = { model: 'claude-sonnet-4-5', apiKey: 'k', baseURL: model.url, maxRetries: 0 };
    const request = { messages: [{ role: 'user' as const, content: 'Hi' }], tools: loaded };
    await createAnthropicProvider({ ...base, toolSearch: 'regex' }).generate(request);
    const plain = createAnthropicProvider(base);
    expect(plain.nativeToolSearch).toBe(false);
    await plain.generate({ ...request, deferredTools: deferred });
    for (const recordedRequest of model.requests) {
      expect((recordedRequest.body as Json).tools).toEqual([
        {
          name: 'get_time',
          description: 'The current time.',
          input_schema: loaded[0]?.input_schema,
        },
      ]);
    }
    expect(() => createAnthropicProvider({ ...base, toolSearch: 'fuzzy' as never })).toThrow(
      /toolSearch must be 'bm25' or 'regex'/,
    );
  });
});
