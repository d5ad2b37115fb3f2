import type { Message } from '@mtpx/protocol';
import { describe, expect, it } from 'vitest';
import { anthropicUnderTest } from '../__fixtures__/adapter-under-test';
import { collect, trace } from '../__fixtures__/collect';
import {
  anthropicEvents,
  calculatorTools,
  jsonFixture,
  readFileTool,
} from '../__fixtures__/fixtures';
import { ProviderError } from '../provider-error';
import { createAnthropicProvider } from './anthropic-provider';

const { server, sse, json, providerFor } = anthropicUnderTest();

const ask: Message[] = [
  { role: 'system', content: 'You are a careful calculator.' },
  { role: 'user', content: 'What is 15 + (4 × (18 − 6)) / 3?' },
];
/** The body with each tool reduced to its wire name (tool specs are snapshotted in full once). */
const requestBodyWithToolNames = () => {
  const body = server?.requests[0]?.body as { tools?: Array<{ name: string }> };
  return { ...body, tools: body.tools?.map((tool) => tool.name) };
};
const bothTools = [calculatorTools[0], readFileTool].flatMap((tool) => (tool ? [tool] : []));

describe('createAnthropicProvider against a Messages API server', () => {
  it('streams tool_use blocks, accumulating input_json_delta and reporting each ready at content_block_stop', async () => {
    const provider = await providerFor([sse('seed-chain')]);
    const { events, error } = await collect(
      provider.stream({ messages: ask, tools: calculatorTools }),
    );
    expect(error).toBeUndefined();
    expect(trace(events)).toMatchInlineSnapshot(`
      [
        "text "I'll compute this in one go"",
        "text ", chaining the results."",
        "delta 0 toolu_01Subtract calculator.subtract +""",
        "delta 0 toolu_01Subtract calculator.subtract +"{\\"a\\": 1"",
        "delta 0 toolu_01Subtract calculator.subtract +"8, \\"b\\": 6}"",
        "ready 0 toolu_01Subtract calculator.subtract {"a":18,"b":6}",
        "delta 1 toolu_02Multiply calculator.multiply +""",
        "delta 1 toolu_02Multiply calculator.multiply +"{\\"a\\": 4, \\"b\\""",
        "delta 1 toolu_02Multiply calculator.multiply +": {\\"$ref\\": \\"t"",
        "delta 1 toolu_02Multiply calculator.multiply +"oolu_01Subtract\\"}}"",
        "ready 1 toolu_02Multiply calculator.multiply {"a":4,"b":{"$ref":"toolu_01Subtract"}}",
        "delta 2 toolu_03Divide calculator.divide +""",
        "delta 2 toolu_03Divide calculator.divide +"{\\"a\\": {\\"$r"",
        "delta 2 toolu_03Divide calculator.divide +"ef\\": \\"toolu_02Multiply\\"}"",
        "delta 2 toolu_03Divide calculator.divide +", \\"b\\": 3}"",
        "ready 2 toolu_03Divide calculator.divide {"a":{"$ref":"toolu_02Multiply"},"b":3}",
        "delta 3 toolu_04Add calculator.add +""",
        "delta 3 toolu_04Add calculator.add +"{\\"a\\": 15, \\"b\\": {\\"$ref\\":"",
        "delta 3 toolu_04Add calculator.add +" \\"toolu_03Divide\\"}}"",
        "ready 3 toolu_04Add calculator.add {"a":15,"b":{"$ref":"toolu_03Divide"}}",
        "usage 1536+187",
        "finish tool_calls",
      ]
    `);
    const finish = events.at(-1);
    expect(finish?.type === 'finish' && finish.turn).toMatchObject({
      finishReason: 'tool_calls',
      model: 'claude-sonnet-4-6',
      responseId: 'msg_01SeedChain4Calls',
      usage: { inputTokens: 1536, outputTokens: 187, totalTokens: 1723, cachedInputTokens: 512 },
      message: { content: "I'll compute this in one go, chaining the results." },
    });
    expect(server?.requests[0]?.path).toBe('/v1/messages');
    expect(
      (server?.requests[0]?.body as { tools?: unknown[] } | undefined)?.tools?.[0],
    ).toMatchInlineSnapshot(`
      {
        "description": "Add two numbers.",
        "input_schema": {
          "properties": {
            "a": {
              "type": "number",
            },
            "b": {
              "type": "number",
            },
          },
          "required": [
            "a",
            "b",
          ],
          "type": "object",
        },
        "name": "calculator_add",
      }
    `);
    expect(requestBodyWithToolNames()).toMatchInlineSnapshot(`
      {
        "max_tokens": 4096,
        "messages": [
          {
            "content": "What is 15 + (4 × (18 − 6)) / 3?",
            "role": "user",
          },
        ],
        "model": "claude-sonnet-4-6",
        "stream": true,
        "system": "You are a careful calculator.",
        "tools": [
          "calculator_add",
          "calculator_subtract",
          "calculator_multiply",
          "calculator_divide",
        ],
      }
    `);
  });

  it('with promptCache, marks the tools and the system prompt as the cached prefix', async () => {
    const { url } = await server.start([json('final-answer'), json('final-answer')]);
    const cached = createAnthropicProvider({
      model: 'claude-sonnet-4-6',
      apiKey: 'sk-ant-test',
      baseURL: url,
      maxRetries: 0,
      promptCache: { ttl: '1h' },
    });
    await cached.generate({ messages: ask, tools: bothTools });
    const body = server.requests[0]?.body as {
      system: unknown;
      tools: Array<{ name: string; cache_control?: unknown }>;
    };
    expect(body.system).toEqual([
      {
        type: 'text',
        text: 'You are a careful calculator.',
        cache_control: { type: 'ephemeral', ttl: '1h' },
      },
    ]);
    expect(body.tools.map((tool) => [tool.name, tool.cache_control])).toEqual([
      ['calculator_add', undefined],
      ['file_read_file', { type: 'ephemeral', ttl: '1h' }],
    ]);
    // Off by default: the same request as plain text and tools.
    const plain = createAnthropicProvider({ model: 'm', apiKey: 'k', baseURL: url, maxRetries: 0 });
    await plain.generate({ messages: ask, tools: bothTools });
    expect(server.requests[1]?.body).toMatchObject({ system: 'You are a careful calculator.' });
  });

  it('returns parallel tool_use blocks as tool calls with their names mapped back', async () => {
    const provider = await providerFor([json('parallel-tool-use')]);
    const turn = await provider.generate({ messages: ask, tools: bothTools });
    expect(turn).toMatchObject({
      finishReason: 'tool_calls',
      message: {
        role: 'assistant',
        content: 'Let me do both at once.',
        tool_calls: [
          { id: 'toolu_01Add', name: 'calculator.add', arguments: { a: 15, b: 27 } },
          { id: 'toolu_02Read', name: 'file.read_file', arguments: { path: 'notes.txt' } },
        ],
      },
    });
  });

  it('sends results as tool_result blocks (is_error on failures) merged into the next user message', async () => {
    const provider = await providerFor([json('final-answer')]);
    const turn = await provider.generate({
      messages: [
        ...ask,
        {
          role: 'assistant',
          content: 'Let me do both at once.',
          tool_calls: [
            {
              id: 'toolu_01Add',
              name: 'calculator.add',
              arguments: { a: 15, b: 27 },
              depends_on: [],
            },
            {
              id: 'toolu_02Read',
              name: 'file.read_file',
              arguments: { path: 'notes.txt' },
              depends_on: [],
            },
          ],
        },
        { role: 'tool', tool_call_id: 'toolu_01Add', name: 'calculator.add', content: '42' },
        {
          role: 'tool',
          tool_call_id: 'toolu_02Read',
          name: 'file.read_file',
          content: 'Error (tool_error): ENOENT: no such file, open notes.txt',
          is_error: true,
        },
      ],
      tools: bothTools,
    });
    expect(turn.message.content).toBe(
      '15 + 27 = 42. I could not read notes.txt: the file does not exist.',
    );
    expect(turn.finishReason).toBe('stop');
    expect(requestBodyWithToolNames()).toMatchInlineSnapshot(`
      {
        "max_tokens": 4096,
        "messages": [
          {
            "content": "What is 15 + (4 × (18 − 6)) / 3?",
            "role": "user",
          },
          {
            "content": [
              {
                "text": "Let me do both at once.",
                "type": "text",
              },
              {
                "id": "toolu_01Add",
                "input": {
                  "a": 15,
                  "b": 27,
                },
                "name": "calculator_add",
                "type": "tool_use",
              },
              {
                "id": "toolu_02Read",
                "input": {
                  "path": "notes.txt",
                },
                "name": "file_read_file",
                "type": "tool_use",
              },
            ],
            "role": "assistant",
          },
          {
            "content": [
              {
                "content": "42",
                "tool_use_id": "toolu_01Add",
                "type": "tool_result",
              },
              {
                "content": "Error (tool_error): ENOENT: no such file, open notes.txt",
                "is_error": true,
                "tool_use_id": "toolu_02Read",
                "type": "tool_result",
              },
            ],
            "role": "user",
          },
        ],
        "model": "claude-sonnet-4-6",
        "stream": false,
        "system": "You are a careful calculator.",
        "tools": [
          "calculator_add",
          "file_read_file",
        ],
      }
    `);
  });

  it('reports a stream cut off inside a tool_use block, and never reports that call ready', async () => {
    const provider = await providerFor([sse('cut-off', 'destroy')]);
    const { events, error } = await collect(
      provider.stream({ messages: ask, tools: calculatorTools }),
    );
    expect(ProviderError.isInstance(error)).toBe(true);
    expect((error as ProviderError).code).toBe('stream_interrupted');
    expect((error as ProviderError).message).toContain('toolu_03Divide (calculator.divide)');
    const ready = events.flatMap((event) =>
      event.type === 'tool-call-ready' ? [event.toolCall.id] : [],
    );
    expect(ready).toEqual(['toolu_01Subtract', 'toolu_02Multiply']);
  });

  it('fails the stream on input_json_delta for a block that has already stopped', async () => {
    const events = anthropicEvents('anthropic/seed-chain.chunks.txt');
    const stopOfFirstCall = events.findIndex(
      (event) =>
        typeof event !== 'string' &&
        event.event === 'content_block_stop' &&
        event.data.includes('"index":1'),
    );
    const late = {
      event: 'content_block_delta',
      data: JSON.stringify({
        type: 'content_block_delta',
        index: 1,
        delta: { type: 'input_json_delta', partial_json: ', "c": 1' },
      }),
    };
    const provider = await providerFor([
      {
        type: 'sse',
        events: [
          ...events.slice(0, stopOfFirstCall + 1),
          late,
          ...events.slice(stopOfFirstCall + 1),
        ],
      },
    ]);
    const { error } = await collect(provider.stream({ messages: ask, tools: calculatorTools }));
    expect((error as ProviderError).code).toBe('invalid_stream');
  });

  it('turns an error event inside the stream into a typed error', async () => {
    const events = anthropicEvents('anthropic/seed-chain.chunks.txt').slice(0, 4);
    const errorEvent = {
      event: 'error',
      data: JSON.stringify(jsonFixture('anthropic/overloaded.json')),
    };
    const provider = await providerFor([{ type: 'sse', events: [...events, errorEvent] }]);
    const { error } = await collect(provider.stream({ messages: ask, tools: calculatorTools }));
    expect(error).toMatchObject({
      code: 'api_error',
      status: undefined,
      isRetryable: true,
      providerCode: 'overloaded_error',
      providerMessage: 'Overloaded',
    });
  });
});
