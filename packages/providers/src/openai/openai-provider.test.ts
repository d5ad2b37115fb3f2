import type { Message, ProviderEvent } from '@mtpx/protocol';
import { describe, expect, it } from 'vitest';
import { openAIUnderTest } from '../__fixtures__/adapter-under-test';
import { collect, trace } from '../__fixtures__/collect';
import { calculatorTools, openAIChunks, readFileTool } from '../__fixtures__/fixtures';
import { ProviderError } from '../provider-error';

const { server, sse, json, providerFor } = openAIUnderTest();

const ask: Message[] = [{ role: 'user', content: 'What is 15 + (4 × (18 − 6)) / 3?' }];
const requestBody = (index = 0) => server?.requests[index]?.body;
/** The body with each tool reduced to its wire name (the first test snapshots whole tools). */
const requestBodyWithToolNames = (index = 0) => {
  const body = requestBody(index) as { tools?: Array<{ function: { name: string } }> };
  return { ...body, tools: body.tools?.map((tool) => tool.function.name) };
};

describe('createOpenAIProvider against a Chat Completions server', () => {
  it('returns parallel calls with dotted names mapped back, and sends mapped tool names', async () => {
    const provider = await providerFor([json('parallel-calls')]);
    const turn = await provider.generate({
      messages: [{ role: 'user', content: 'Add 15 and 27, and read notes.txt.' }],
      tools: [calculatorTools[0], readFileTool].flatMap((tool) => (tool ? [tool] : [])),
    });
    expect(turn.finishReason).toBe('tool_calls');
    expect(turn.message.tool_calls).toEqual([
      { id: 'call_1', name: 'calculator.add', arguments: { a: 15, b: 27 }, depends_on: [] },
      { id: 'call_2', name: 'file.read_file', arguments: { path: 'notes.txt' }, depends_on: [] },
    ]);
    expect(turn.usage).toEqual({
      inputTokens: 160,
      outputTokens: 52,
      totalTokens: 212,
      cachedInputTokens: 128,
      cacheReadTokens: 128,
      reasoningTokens: 0,
    });
    expect(turn.model).toBe('gpt-4.1-mini-2025-04-14');
    expect(server?.requests[0]?.path).toBe('/v1/chat/completions');
    expect(requestBody()).toMatchInlineSnapshot(`
      {
        "messages": [
          {
            "content": "Add 15 and 27, and read notes.txt.",
            "role": "user",
          },
        ],
        "model": "gpt-4.1-mini",
        "stream": false,
        "tools": [
          {
            "function": {
              "description": "Add two numbers.",
              "name": "calculator_add",
              "parameters": {
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
            },
            "type": "function",
          },
          {
            "function": {
              "description": "Read a text file.",
              "name": "file_read_file",
              "parameters": {
                "properties": {
                  "path": {
                    "type": "string",
                  },
                },
                "required": [
                  "path",
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

  it('streams the seed chain and reports each call ready as soon as the next one begins', async () => {
    const provider = await providerFor([sse('seed-chain')]);
    const { events, error } = await collect(
      provider.stream({ messages: ask, tools: calculatorTools }),
    );
    expect(error).toBeUndefined();
    const ready = events.filter((event) => event.type === 'tool-call-ready');
    expect(
      ready.map((event) => [event.toolCall.id, event.toolCall.name, event.toolCall.arguments]),
    ).toEqual([
      ['call_1', 'calculator.subtract', { a: 18, b: 6 }],
      ['call_2', 'calculator.multiply', { a: 4, b: { $ref: 'call_1' } }],
      ['call_3', 'calculator.divide', { a: { $ref: 'call_2' }, b: 3 }],
      ['call_4', 'calculator.add', { a: 15, b: { $ref: 'call_3' } }],
    ]);
    // Eager: call_1 is ready before any fragment of call_4 has arrived.
    const call1Ready = events.findIndex(
      (event) => event.type === 'tool-call-ready' && event.index === 0,
    );
    const call4First = events.findIndex(
      (event) => event.type === 'tool-call-delta' && event.index === 3,
    );
    expect(call1Ready).toBeGreaterThanOrEqual(0);
    expect(call1Ready).toBeLessThan(call4First);
    const finish = events.at(-1) as Extract<ProviderEvent, { type: 'finish' }>;
    expect(finish.type).toBe('finish');
    expect(finish.turn.message.tool_calls?.map((call) => call.id)).toEqual([
      'call_1',
      'call_2',
      'call_3',
      'call_4',
    ]);
    expect(finish.turn.usage?.totalTokens).toBe(308);
    expect(events.at(-2)).toEqual({ type: 'usage', usage: finish.turn.usage });
    expect(requestBodyWithToolNames()).toMatchInlineSnapshot(`
      {
        "messages": [
          {
            "content": "What is 15 + (4 × (18 − 6)) / 3?",
            "role": "user",
          },
        ],
        "model": "gpt-4.1-mini",
        "stream": true,
        "stream_options": {
          "include_usage": true,
        },
        "tools": [
          "calculator_add",
          "calculator_subtract",
          "calculator_multiply",
          "calculator_divide",
        ],
      }
    `);
  });

  it('reassembles fragments split in the middle of keys and values', async () => {
    const provider = await providerFor([sse('split-mid-key')]);
    const { events, error } = await collect(
      provider.stream({ messages: ask, tools: [...calculatorTools, readFileTool] }),
    );
    expect(error).toBeUndefined();
    expect(trace(events)).toMatchInlineSnapshot(`
      [
        "delta 0 call_1 calculator.add +""",
        "delta 0 call_1 calculator.add +"{\\"a"",
        "delta 0 call_1 calculator.add +"\\":1"",
        "delta 0 call_1 calculator.add +"5,\\"b\\""",
        "delta 0 call_1 calculator.add +":2"",
        "delta 0 call_1 calculator.add +"7}"",
        "delta 1 call_2 file.read_file +""",
        "ready 0 call_1 calculator.add {"a":15,"b":27}",
        "delta 1 call_2 file.read_file +"{\\"pa"",
        "delta 1 call_2 file.read_file +"th\\":\\"no"",
        "delta 1 call_2 file.read_file +"tes.t"",
        "delta 1 call_2 file.read_file +"xt\\"}"",
        "ready 1 call_2 file.read_file {"path":"notes.txt"}",
        "usage 180+41",
        "finish tool_calls",
      ]
    `);
  });

  it('accumulates interleaved indices separately', async () => {
    const provider = await providerFor([sse('interleaved')]);
    const { events, error } = await collect(
      provider.stream({ messages: ask, tools: calculatorTools }),
    );
    expect(error).toBeUndefined();
    expect(trace(events)).toMatchInlineSnapshot(`
      [
        "delta 0 call_1 calculator.add +""",
        "delta 1 call_2 calculator.multiply +""",
        "delta 0 call_1 calculator.add +"{\\"a\\":15,"",
        "delta 1 call_2 calculator.multiply +"{\\"a\\":6,"",
        "delta 1 call_2 calculator.multiply +"\\"b\\":7}"",
        "delta 0 call_1 calculator.add +"\\"b\\":27}"",
        "ready 0 call_1 calculator.add {"a":15,"b":27}",
        "ready 1 call_2 calculator.multiply {"a":6,"b":7}",
        "usage 190+44",
        "finish tool_calls",
      ]
    `);
  });

  it('reports a stream cut off mid-arguments, and never reports the partial call ready', async () => {
    const provider = await providerFor([sse('cut-off', 'destroy')]);
    const { events, error } = await collect(
      provider.stream({ messages: ask, tools: calculatorTools }),
    );
    expect(ProviderError.isInstance(error)).toBe(true);
    const providerError = error as ProviderError;
    expect(providerError.code).toBe('stream_interrupted');
    expect(providerError.message).toContain(
      'call call_3 (calculator.divide) stopped at "{\\"a\\":{\\"$ref"',
    );
    const readyIds = events.flatMap((event) =>
      event.type === 'tool-call-ready' ? [event.toolCall.id] : [],
    );
    expect(readyIds).toEqual(['call_1', 'call_2']);
    expect(events.some((event) => event.type === 'finish')).toBe(false);
  });

  it('treats a stream that ends without a finish_reason as cut off', async () => {
    const events = openAIChunks('openai/seed-chain.chunks.txt');
    const provider = await providerFor([{ type: 'sse', events: events.slice(0, 20) }]);
    const { events: received, error } = await collect(
      provider.stream({ messages: ask, tools: calculatorTools }),
    );
    expect((error as ProviderError).code).toBe('stream_interrupted');
    expect((error as ProviderError).message).toMatchInlineSnapshot(
      `"openai: the response stream ended before the response was complete (no finish_reason was received). Incomplete tool calls, not reported ready and not to be executed: call call_2 (calculator.multiply) stopped at "{\\"a\\":4,\\"b\\":{\\"$ref"."`,
    );
    expect(received.filter((event) => event.type === 'tool-call-ready')).toHaveLength(1);
  });

  it('fails the stream when a fragment arrives for a call already reported ready', async () => {
    const provider = await providerFor([sse('late-fragment')]);
    const { events, error } = await collect(
      provider.stream({ messages: ask, tools: calculatorTools }),
    );
    expect((error as ProviderError).code).toBe('invalid_stream');
    expect((error as ProviderError).message).toMatchInlineSnapshot(
      `"openai: invalid tool-call stream: the API sent more arguments (",\\"c\\":1}") for call call_1 (calculator.add) after it was complete and reported ready."`,
    );
    expect(trace(events).filter((line) => line.startsWith('ready'))).toEqual([
      'ready 0 call_1 calculator.add {"a":15,"b":27}',
    ]);
  });

  it('keeps calls with malformed arguments, with the raw text and a parse error', async () => {
    const provider = await providerFor([json('malformed-arguments')]);
    const turn = await provider.generate({ messages: ask, tools: calculatorTools });
    expect(turn.message.tool_calls).toMatchInlineSnapshot(`
      [
        {
          "arguments": {},
          "arguments_error": "The arguments are not valid JSON (Invalid JSON: Unexpected end of JSON input). Send one JSON object.",
          "depends_on": [],
          "id": "call_1",
          "name": "calculator.add",
          "raw_arguments": "{"a":15,"b":",
        },
        {
          "arguments": {},
          "arguments_error": "The arguments must be a JSON object, not array of 2.",
          "depends_on": [],
          "id": "call_2",
          "name": "calculator.add",
          "raw_arguments": "[15,27]",
        },
        {
          "arguments": {
            "a": 1,
            "b": 2,
          },
          "depends_on": [],
          "id": "call_3",
          "name": "calculator.add",
        },
      ]
    `);
  });

  it('leaves an unknown tool name as the model sent it', async () => {
    const provider = await providerFor([json('unknown-tool')]);
    const turn = await provider.generate({ messages: ask, tools: calculatorTools });
    expect(turn.message.tool_calls?.[0]?.name).toBe('calculator_pow');
  });

  it('sends tool results back as role "tool" messages, with dotted names mapped in history', async () => {
    const provider = await providerFor([json('final-answer')]);
    const turn = await provider.generate({
      messages: [
        { role: 'system', content: 'You are a careful calculator.' },
        { role: 'user', content: 'Add 15 and 27, and read notes.txt.' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_1', name: 'calculator.add', arguments: { a: 15, b: 27 }, depends_on: [] },
            {
              id: 'call_2',
              name: 'file.read_file',
              arguments: {},
              depends_on: [],
              raw_arguments: '{"path":',
              arguments_error: 'The arguments are not valid JSON.',
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', name: 'calculator.add', content: '42' },
        {
          role: 'tool',
          tool_call_id: 'call_2',
          name: 'file.read_file',
          content: 'Error (invalid_arguments): The arguments are not valid JSON.',
          is_error: true,
        },
      ],
      tools: [calculatorTools[0], readFileTool].flatMap((tool) => (tool ? [tool] : [])),
    });
    expect(turn.message).toEqual({
      role: 'assistant',
      content: '15 + 27 = 42, and notes.txt says: buy milk.',
    });
    expect(turn.finishReason).toBe('stop');
    expect(requestBodyWithToolNames()).toMatchInlineSnapshot(`
      {
        "messages": [
          {
            "content": "You are a careful calculator.",
            "role": "system",
          },
          {
            "content": "Add 15 and 27, and read notes.txt.",
            "role": "user",
          },
          {
            "content": null,
            "role": "assistant",
            "tool_calls": [
              {
                "function": {
                  "arguments": "{"a":15,"b":27}",
                  "name": "calculator_add",
                },
                "id": "call_1",
                "type": "function",
              },
              {
                "function": {
                  "arguments": "{"path":",
                  "name": "file_read_file",
                },
                "id": "call_2",
                "type": "function",
              },
            ],
          },
          {
            "content": "42",
            "role": "tool",
            "tool_call_id": "call_1",
          },
          {
            "content": "Error (invalid_arguments): The arguments are not valid JSON.",
            "role": "tool",
            "tool_call_id": "call_2",
          },
        ],
        "model": "gpt-4.1-mini",
        "stream": false,
        "tools": [
          "calculator_add",
          "file_read_file",
        ],
      }
    `);
  });

  it('streams a text answer', async () => {
    const provider = await providerFor([sse('final-text')]);
    const { events, error } = await collect(provider.stream({ messages: ask, tools: [] }));
    expect(error).toBeUndefined();
    expect(trace(events)).toEqual([
      'text "15 + (4 × (18 − 6)) / 3"',
      'text " = 31"',
      'usage 301+14',
      'finish stop',
    ]);
    expect(requestBody()).toMatchInlineSnapshot(`
      {
        "messages": [
          {
            "content": "What is 15 + (4 × (18 − 6)) / 3?",
            "role": "user",
          },
        ],
        "model": "gpt-4.1-mini",
        "stream": true,
        "stream_options": {
          "include_usage": true,
        },
      }
    `);
  });
});
