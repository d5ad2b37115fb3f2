import { sanitizeToolName } from '@mtpx/providers';
import {
  type ModelServer,
  openAIChatCompletionChunks,
  type SseEvent,
  startModelServer,
  startScriptedOpenAIServer,
} from '@mtpx/providers/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { parseJson } from '../__fixtures__/json';
import { compactBody } from '../__fixtures__/request-bodies';
import { openAIAgent } from '../__fixtures__/sdk-agents';
import {
  collect,
  finalTurn,
  heldBack,
  openAIIds,
  positionOf,
  seedQuestion,
  seedTurn,
  signal,
} from '../__fixtures__/seed';
import type { AgentEvent } from '../index';

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The second request (after the tool round), compacted for a snapshot. */
const secondRequest = () => compactBody(server?.requests[1]);

describe('the seed chain through the openai SDK against a Chat Completions server', () => {
  it('run(): ONE tool round, two model calls; the second request carries the four role "tool" results', async () => {
    server = await startScriptedOpenAIServer([seedTurn(openAIIds), finalTurn]);
    const output = await openAIAgent(server).run(seedQuestion);

    expect(server.requests).toHaveLength(2);
    expect(output).toMatchObject({
      final_text: '15 + (4 × (18 − 6)) / 3 = 31.',
      rounds: 2,
      stop_reason: 'final',
    });
    expect(output.tool_results.map((result) => result.output)).toEqual([12, 48, 16, 31]);
    expect(secondRequest()).toMatchInlineSnapshot(`
      {
        "messages": [
          {
            "content": "<REFERENCE_INSTRUCTIONS>",
            "role": "system",
          },
          {
            "content": "What is 15 + (4 × (18 − 6)) / 3?",
            "role": "user",
          },
          {
            "content": null,
            "role": "assistant",
            "tool_calls": [
              {
                "function": {
                  "arguments": "{"a":18,"b":6}",
                  "name": "calculator_subtract",
                },
                "id": "call_Qm8kX2vLr4TnB7pD1sYw3Ha",
                "type": "function",
              },
              {
                "function": {
                  "arguments": "{"a":4,"b":{"$ref":"call_1"}}",
                  "name": "calculator_multiply",
                },
                "id": "call_Zr5cN1wQe8JtV3xK6mLp0Fb",
                "type": "function",
              },
              {
                "function": {
                  "arguments": "{"a":{"$ref":"call_2"},"b":3}",
                  "name": "calculator_divide",
                },
                "id": "call_H2dT9yBn4RkW7qS1vXc5Mg",
                "type": "function",
              },
              {
                "function": {
                  "arguments": "{"a":15,"b":{"$ref":"call_3"}}",
                  "name": "calculator_add",
                },
                "id": "call_P6fJ3uLa0GzE8nY2tKr7Dq",
                "type": "function",
              },
            ],
          },
          {
            "content": "12",
            "role": "tool",
            "tool_call_id": "call_Qm8kX2vLr4TnB7pD1sYw3Ha",
          },
          {
            "content": "48",
            "role": "tool",
            "tool_call_id": "call_Zr5cN1wQe8JtV3xK6mLp0Fb",
          },
          {
            "content": "16",
            "role": "tool",
            "tool_call_id": "call_H2dT9yBn4RkW7qS1vXc5Mg",
          },
          {
            "content": "31",
            "role": "tool",
            "tool_call_id": "call_P6fJ3uLa0GzE8nY2tKr7Dq",
          },
        ],
        "model": "gpt-4.1-mini",
        "stream": false,
        "tools": [
          "calculator_add",
          "calculator_subtract",
          "calculator_multiply",
          "calculator_divide",
          "calculator_sqrt",
        ],
      }
    `);
  });

  it('stream(): the same chain, streamed, in ONE tool round with the same four tool messages', async () => {
    server = await startScriptedOpenAIServer([seedTurn(openAIIds), finalTurn], { chunkSize: 5 });
    const { events, output } = await collect(openAIAgent(server).stream(seedQuestion));

    expect(server.requests).toHaveLength(2);
    expect(output?.final_text).toBe('15 + (4 × (18 − 6)) / 3 = 31.');
    expect(output?.rounds).toBe(2);
    const second = secondRequest();
    expect(second.stream).toBe(true);
    expect(second.messages?.filter((message) => message.role === 'tool')).toMatchInlineSnapshot(`
      [
        {
          "content": "12",
          "role": "tool",
          "tool_call_id": "call_Qm8kX2vLr4TnB7pD1sYw3Ha",
        },
        {
          "content": "48",
          "role": "tool",
          "tool_call_id": "call_Zr5cN1wQe8JtV3xK6mLp0Fb",
        },
        {
          "content": "16",
          "role": "tool",
          "tool_call_id": "call_H2dT9yBn4RkW7qS1vXc5Mg",
        },
        {
          "content": "31",
          "role": "tool",
          "tool_call_id": "call_P6fJ3uLa0GzE8nY2tKr7Dq",
        },
      ]
    `);
    const aliases = events.flatMap((event) =>
      event.type === 'tool-call-ready' ? [event.aliases] : [],
    );
    expect(aliases).toEqual([
      {},
      { call_1: openAIIds[0] },
      { call_2: openAIIds[1] },
      { call_3: openAIIds[2] },
    ]);
  });

  it('sends the tools’ own schemas and the short instructions: the whole first request', async () => {
    server = await startScriptedOpenAIServer([{ text: 'Nothing to compute.' }]);
    await openAIAgent(server).run('Hi');
    const body = server.requests[0]?.body as { messages: unknown[]; tools: unknown[] };
    expect({ messages: body.messages, tools: body.tools.slice(0, 2) }).toMatchInlineSnapshot(`
      {
        "messages": [
          {
            "content": "Make all tool calls you can in one response. If an argument is another call's output, write {"$ref":"call_N"} (your Nth call here, or an earlier id); add "$path":"/a/0" for a part.",
            "role": "system",
          },
          {
            "content": "Hi",
            "role": "user",
          },
        ],
        "tools": [
          {
            "function": {
              "description": "Add two numbers: a + b.",
              "name": "calculator_add",
              "parameters": {
                "additionalProperties": false,
                "properties": {
                  "a": {
                    "description": "First addend.",
                    "type": "number",
                  },
                  "b": {
                    "description": "Second addend.",
                    "type": "number",
                  },
                },
                "required": [
                  "a",
                  "b",
                ],
                "type": "object",
              },
            },
            "type": "function",
          },
          {
            "function": {
              "description": "Subtract b from a: a - b.",
              "name": "calculator_subtract",
              "parameters": {
                "additionalProperties": false,
                "properties": {
                  "a": {
                    "description": "The number to subtract from.",
                    "type": "number",
                  },
                  "b": {
                    "description": "The number to subtract.",
                    "type": "number",
                  },
                },
                "required": [
                  "a",
                  "b",
                ],
                "type": "object",
              },
            },
            "type": "function",
          },
        ],
      }
    `);
  });

  it('with strictTools, sends strict tools that accept a {"$ref": …} wherever a value goes', async () => {
    server = await startScriptedOpenAIServer([{ text: 'Nothing to compute.' }]);
    await openAIAgent(server, { strictTools: true }).run('Hi');
    const body = server.requests[0]?.body as { tools: unknown[] };
    expect(body.tools[0]).toMatchInlineSnapshot(`
      {
        "function": {
          "description": "Add two numbers: a + b.",
          "name": "calculator_add",
          "parameters": {
            "$defs": {
              "ref": {
                "additionalProperties": false,
                "properties": {
                  "$path": {
                    "type": "string",
                  },
                  "$ref": {
                    "type": "string",
                  },
                },
                "required": [
                  "$ref",
                  "$path",
                ],
                "type": "object",
              },
            },
            "additionalProperties": false,
            "properties": {
              "a": {
                "anyOf": [
                  {
                    "type": "number",
                  },
                  {
                    "$ref": "#/$defs/ref",
                  },
                ],
                "description": "First addend.",
              },
              "b": {
                "anyOf": [
                  {
                    "type": "number",
                  },
                  {
                    "$ref": "#/$defs/ref",
                  },
                ],
                "description": "Second addend.",
              },
            },
            "required": [
              "a",
              "b",
            ],
            "type": "object",
          },
          "strict": true,
        },
        "type": "function",
      }
    `);
  });
});

/** The events of the seed turn on the wire, as OpenAI streams them. */
function seedChunks(): SseEvent[] {
  return openAIChatCompletionChunks(seedTurn(openAIIds), { toolName: sanitizeToolName });
}

/** The chunk that carries the first piece of the 4th call's arguments. */
function fourthCallArguments(event: SseEvent): boolean {
  const data = typeof event === 'string' ? event : event.data;
  if (data === '[DONE]') return false;
  const chunk = parseJson(data) as {
    choices: Array<{
      delta: { tool_calls?: Array<{ index: number; function?: { arguments?: string } }> };
    }>;
  };
  const fragment = chunk.choices[0]?.delta.tool_calls?.[0];
  return fragment?.index === 3 && (fragment.function?.arguments ?? '') !== '';
}

const callIdOf = (event: AgentEvent) =>
  'callId' in event ? event.callId : event.type === 'tool-call-ready' ? event.toolCall.id : '';

describe('eager dispatch through the openai SDK', () => {
  it('runs call_1 … call_3 while the model is still writing call_4', async () => {
    // The server holds back call_4's arguments until call_3 has finished on the client:
    // only eager dispatch lets this run finish at all.
    const thirdFinished = signal();
    server = await startModelServer({
      responses: [
        { type: 'sse', events: heldBack(seedChunks(), fourthCallArguments, thirdFinished.promise) },
        { type: 'sse', events: openAIChatCompletionChunks(finalTurn) },
      ],
    });
    const events: AgentEvent[] = [];
    const stream = openAIAgent(server).stream(seedQuestion, {
      onEvent: (event) => {
        if (event.type === 'call-finished' && event.callId === openAIIds[2])
          thirdFinished.resolve();
      },
    });
    for await (const event of stream) events.push(event);
    const output = await stream.result;
    expect(output.tool_results.map((result) => result.output)).toEqual([12, 48, 16, 31]);

    const position = (type: AgentEvent['type'], id: string) =>
      positionOf(events, (event) => event.type === type && callIdOf(event) === id);
    const call4Ready = position('tool-call-ready', openAIIds[3] as string);
    const call4FirstArguments = positionOf(
      events,
      (event) =>
        event.type === 'tool-call-delta' && event.index === 3 && event.argumentsDelta !== '',
    );
    // call_1 started before the stream had even begun call_4 …
    expect(position('call-started', openAIIds[0] as string)).toBeLessThan(
      positionOf(events, (event) => event.type === 'tool-call-delta' && event.index === 3),
    );
    // … and call_1, call_2 and call_3 had all finished before call_4's arguments arrived.
    for (const id of openAIIds.slice(0, 3)) {
      expect(position('call-finished', id)).toBeLessThan(call4FirstArguments);
    }
    expect(call4FirstArguments).toBeLessThan(call4Ready);
    expect(position('call-started', openAIIds[3] as string)).toBeGreaterThan(call4Ready);
  });

  it('with eagerDispatch off, starts no call before the stream has ended', async () => {
    server = await startScriptedOpenAIServer([seedTurn(openAIIds), finalTurn], { chunkSize: 5 });
    const { events } = await collect(
      openAIAgent(server, { eagerDispatch: false }).stream(seedQuestion),
    );
    const lastReady = events.findLastIndex((event) => event.type === 'tool-call-ready');
    const firstStart = positionOf(events, (event) => event.type === 'call-started');
    expect(lastReady).toBeGreaterThan(0);
    expect(firstStart).toBeGreaterThan(lastReady);
  });
});
