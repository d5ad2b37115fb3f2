import type { Message, ToolSpec } from '@mtpx/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { modelCall } from '../__fixtures__/recorded-answers';
import { asSse, recordedStreams } from '../__fixtures__/responses-recordings';
import { responsesDeferredToolsRule } from '../__fixtures__/tool-search-rules';
import { type ModelServer, type ResponseScript, startModelServer } from '../testing/model-server';
import { openAIResponse, openAIResponseEvents } from '../testing/openai-responses-wire';
import {
  checkResponsesInput,
  type IssuedItem,
  rememberIssued,
} from '../testing/responses-input-rules';
import { createOpenAIResponsesProvider } from './responses-provider';

type Json = Record<string, unknown>;

let current: ModelServer | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
});

/** The recording's three deferred functions (vercel/ai's tool search example). */
const deferred: ToolSpec[] = [
  {
    name: 'get_weather',
    description: 'Get the current weather at a specific location',
    input_schema: {
      type: 'object',
      properties: {
        location: { type: 'string', description: 'The city and state, e.g. San Francisco, CA' },
        unit: {
          type: 'string',
          enum: ['celsius', 'fahrenheit'],
          description: 'Temperature unit',
        },
      },
      required: ['location', 'unit'],
      additionalProperties: false,
    },
    tags: [],
    risk_level: 'read_only',
  },
  {
    name: 'send_email',
    description: 'Send an email to a recipient',
    input_schema: { type: 'object', properties: { to: { type: 'string' } }, required: ['to'] },
    tags: [],
    risk_level: 'write',
  },
];

/**
 * A Responses API that refuses what the real one refuses — the input rules of
 * `checkResponsesInput`, and deferred functions without `tool_search` or a namespaced call
 * sent back without its namespace — then answers the recorded search-and-call stream, then
 * a final text.
 */
async function apiServer() {
  const issued = new Map<string, IssuedItem>();
  const calls = new Map<string, Json>();
  const answers: Json[][] = [
    ...recordedStreams('openai-tool-search.1.chunks.txt'),
    openAIResponseEvents({ text: 'It is 64°F in San Francisco.' }).map(
      (event) => JSON.parse((event as { data: string }).data) as Json,
    ),
  ];
  let answered = 0;
  current = await startModelServer({
    responses: (request): ResponseScript => {
      const body = (request.body ?? {}) as Json;
      const refused = checkResponsesInput(body, issued) ?? responsesDeferredToolsRule(body, calls);
      if (refused !== undefined) return refused;
      const events = answers[answered++] ?? [];
      const items = events
        .filter((event) => event.type === 'response.output_item.done')
        .map((event) => event.item as Json);
      rememberIssued(issued, items, body.store !== false);
      for (const item of items) {
        if (item.type === 'function_call') calls.set(String(item.call_id), item);
      }
      if (body.stream === true) return { type: 'sse', events: asSse(events) };
      const completed = events.find((event) => event.type === 'response.completed')
        ?.response as Json;
      return { type: 'json', body: { ...completed, output: items } };
    },
  });
  return current;
}

describe("the Responses API's tool search, passed through (recorded traffic)", () => {
  for (const mode of ['whole', 'stream'] as const) {
    it(`sends deferred functions and tool_search; the found function's call goes back with its namespace (${mode})`, async () => {
      const model = await apiServer();
      const provider = createOpenAIResponsesProvider({
        model: 'gpt-5.4',
        apiKey: 'sk-test',
        baseURL: `${model.url}/v1`,
        maxRetries: 0,
        toolSearch: true,
      });
      expect(provider.nativeToolSearch).toBe(true);
      const messages: Message[] = [{ role: 'user', content: 'Weather in San Francisco?' }];
      const request = () => ({ messages, tools: [], deferredTools: deferred });
      const { turn } = await modelCall(provider, request(), mode);
      const tools = ((model.requests[0]?.body ?? {}) as Json).tools as Json[];
      expect(tools.map((tool) => [tool.type, tool.name, tool.defer_loading])).toEqual([
        ['function', 'get_weather', true],
        ['function', 'send_email', true],
        ['tool_search', undefined, undefined],
      ]);
      expect(turn.message.tool_calls?.map((call) => [call.name, call.arguments])).toEqual([
        ['get_weather', { location: 'San Francisco, CA', unit: 'fahrenheit' }],
      ]);
      expect(turn.message.provider_parts?.map((part) => part.type)).toEqual(
        expect.arrayContaining(['tool_search_call', 'tool_search_output', 'function_call']),
      );
      messages.push(turn.message, {
        role: 'tool',
        tool_call_id: turn.message.tool_calls?.[0]?.id as string,
        name: 'get_weather',
        content: '64°F',
      });
      const second = await modelCall(provider, request(), mode);
      expect(second.turn.message.content).toBe('It is 64°F in San Francisco.');
      const input = ((model.requests[1]?.body ?? {}) as Json).input as Json[];
      expect(input.find((item) => item.type === 'function_call')).toMatchObject({
        name: 'get_weather',
        namespace: 'get_weather',
      });
    });
  }

  it('the replay server refuses what the API refuses: deferred functions without tool_search, a call without its namespace', () => {
    expect(
      responsesDeferredToolsRule(
        { tools: [{ type: 'function', name: 'a', defer_loading: true }] },
        new Map(),
      )?.body,
    ).toMatchObject({ error: { message: expect.stringContaining('Deferred tools require') } });
    expect(
      responsesDeferredToolsRule(
        { input: [{ type: 'function_call', call_id: 'c1', name: 'get_weather' }] },
        new Map([['c1', { namespace: 'get_weather' }]]),
      )?.body,
    ).toMatchObject({ error: { param: 'input[0].namespace' } });
  });

  it('without the option, deferred tools are not sent and nothing is deferred', async () => {
    current = await startModelServer({
      responses: [{ type: 'json', body: openAIResponse({ text: 'ok' }) }],
    });
    const provider = createOpenAIResponsesProvider({
      model: 'gpt-5.4',
      apiKey: 'sk-test',
      baseURL: `${current.url}/v1`,
      maxRetries: 0,
    });
    expect(provider.nativeToolSearch).toBe(false);
    await provider.generate({
      messages: [{ role: 'user', content: 'Hi' }],
      tools: [],
      deferredTools: deferred,
    });
    expect(((current.requests[0]?.body ?? {}) as Json).tools).toBeUndefined();
  });
});
