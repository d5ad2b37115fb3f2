import { ProviderError, sanitizeToolName } from '@mtpx/providers';
import {
  anthropicMessageEvents,
  type ModelServer,
  openAIChatCompletionChunks,
  type ScriptedTurn,
  startModelServer,
  startScriptedAnthropicServer,
  startScriptedOpenAIServer,
} from '@mtpx/providers/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { parseJson } from '../__fixtures__/json';
import { compactBody } from '../__fixtures__/request-bodies';
import { anthropicAgent, openAIAgent } from '../__fixtures__/sdk-agents';
import { collect, openAIIds, seedQuestion, seedTurn } from '../__fixtures__/seed';

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** One response with every kind of mistake a model makes, and one good call. */
const mistakes: ScriptedTurn = {
  toolCalls: [
    { id: 'call_Aa1', name: 'calculator.add', arguments: '{"a": 15, "b": ' },
    { id: 'call_Bb2', name: 'calculator.power', arguments: { a: 2, b: 10 } },
    { id: 'call_Cc3', name: 'calculator.add', arguments: { a: 1, b: { $ref: 'call_Dd4' } } },
    { id: 'call_Dd4', name: 'calculator.add', arguments: { a: 2, b: { $ref: 'call_Cc3' } } },
    { id: 'call_Ee5', name: 'calculator.sqrt', arguments: { x: { $ref: 'call_9' } } },
    { id: 'call_Ff6', name: 'calculator.multiply', arguments: { a: 6, b: 7 } },
  ],
};
const apology: ScriptedTurn = { text: '6 × 7 = 42; the other calls need fixing.' };

describe('model mistakes become error results the model reads next round', () => {
  it('streamed through the openai SDK: bad JSON, unknown tool, cycle, $ref to nowhere', async () => {
    server = await startScriptedOpenAIServer([mistakes, apology], { chunkSize: 7 });
    const { events, output } = await collect(openAIAgent(server).stream('Compute things.'));
    expect(output?.stop_reason).toBe('final');
    expect(output?.final_text).toBe('6 × 7 = 42; the other calls need fixing.');
    // Calls with plan problems were never dispatched; the others were, and only the good one ran its tool.
    const started = events.flatMap((event) =>
      event.type === 'call-started' ? [event.callId] : [],
    );
    expect(started.sort()).toEqual(['call_Aa1', 'call_Bb2', 'call_Ff6']);
    const skipped = events.flatMap((event) =>
      event.type === 'call-skipped' ? [event.callId] : [],
    );
    expect(skipped.sort()).toEqual(['call_Cc3', 'call_Dd4', 'call_Ee5']);
    const body = compactBody(server.requests[1]);
    expect(body.messages?.filter((message) => message.role === 'tool')).toMatchInlineSnapshot(`
      [
        {
          "content": "Error (invalid_arguments): Invalid arguments for "calculator.add": The arguments are not valid JSON (Invalid JSON: Unexpected end of JSON input). Send one JSON object.",
          "role": "tool",
          "tool_call_id": "call_Aa1",
        },
        {
          "content": "Error (unknown_tool): No tool named "calculator.power"; the "calculator" tools are: calculator.add, calculator.divide, calculator.multiply, calculator.sqrt, calculator.subtract.",
          "role": "tool",
          "tool_call_id": "call_Bb2",
        },
        {
          "content": "Error (invalid_plan): Calls depend on each other in a cycle: call_Cc3 -> call_Dd4 -> call_Cc3 (read "->" as "needs the output of"); no order can run them, so remove one of these references.",
          "role": "tool",
          "tool_call_id": "call_Cc3",
        },
        {
          "content": "Error (invalid_plan): Calls depend on each other in a cycle: call_Cc3 -> call_Dd4 -> call_Cc3 (read "->" as "needs the output of"); no order can run them, so remove one of these references.",
          "role": "tool",
          "tool_call_id": "call_Dd4",
        },
        {
          "content": "Error (invalid_plan): Call "call_Ee5" references {"$ref": "call_9"}, but no call with that id exists in this response or an earlier round.",
          "role": "tool",
          "tool_call_id": "call_Ee5",
        },
        {
          "content": "42",
          "role": "tool",
          "tool_call_id": "call_Ff6",
        },
      ]
    `);
  });

  it('through the Anthropic SDK: the same mistakes go back as is_error tool_result blocks', async () => {
    server = await startScriptedAnthropicServer([mistakes, apology]);
    const output = await anthropicAgent(server).run('Compute things.');
    expect(output.tool_results.map((result) => result.error_code ?? 'ok')).toEqual([
      'invalid_arguments',
      'unknown_tool',
      'invalid_plan',
      'invalid_plan',
      'invalid_plan',
      'ok',
    ]);
    const body = compactBody(server.requests[1]);
    expect(body.messages?.at(-1)).toMatchInlineSnapshot(`
      {
        "content": [
          {
            "content": "Error (invalid_arguments): Invalid arguments for "calculator.add": "a": required property is missing; "b": required property is missing.",
            "is_error": true,
            "tool_use_id": "call_Aa1",
            "type": "tool_result",
          },
          {
            "content": "Error (unknown_tool): No tool named "calculator.power"; the "calculator" tools are: calculator.add, calculator.divide, calculator.multiply, calculator.sqrt, calculator.subtract.",
            "is_error": true,
            "tool_use_id": "call_Bb2",
            "type": "tool_result",
          },
          {
            "content": "Error (invalid_plan): Calls depend on each other in a cycle: call_Cc3 -> call_Dd4 -> call_Cc3 (read "->" as "needs the output of"); no order can run them, so remove one of these references.",
            "is_error": true,
            "tool_use_id": "call_Cc3",
            "type": "tool_result",
          },
          {
            "content": "Error (invalid_plan): Calls depend on each other in a cycle: call_Cc3 -> call_Dd4 -> call_Cc3 (read "->" as "needs the output of"); no order can run them, so remove one of these references.",
            "is_error": true,
            "tool_use_id": "call_Dd4",
            "type": "tool_result",
          },
          {
            "content": "Error (invalid_plan): Call "call_Ee5" references {"$ref": "call_9"}, but no call with that id exists in this response or an earlier round.",
            "is_error": true,
            "tool_use_id": "call_Ee5",
            "type": "tool_result",
          },
          {
            "content": "42",
            "tool_use_id": "call_Ff6",
            "type": "tool_result",
          },
        ],
        "role": "user",
      }
    `);
  });

  it('the model repairs its call in the next round', async () => {
    server = await startScriptedOpenAIServer([
      { toolCalls: [{ id: 'call_X1', name: 'calculator.add', arguments: '{"a": "15", "b": 27}' }] },
      { toolCalls: [{ id: 'call_X2', name: 'calculator.add', arguments: { a: 15, b: 27 } }] },
      { text: '42' },
    ]);
    const output = await openAIAgent(server).run('15 + 27?');
    expect(output).toMatchObject({ final_text: '42', rounds: 3, stop_reason: 'final' });
    expect(
      output.tool_results.map((result) => [result.call_id, result.error ?? result.output]),
    ).toEqual([
      ['call_X1', 'Invalid arguments for "calculator.add": "a": expected number, got string "15".'],
      ['call_X2', 42],
    ]);
  });
});

describe('a stream cut off mid-arguments', () => {
  it('openai: a clear ProviderError; the partial call never runs; calls already started are answered', async () => {
    const chunks = openAIChatCompletionChunks(seedTurn(openAIIds), {
      toolName: sanitizeToolName,
      chunkSize: 4,
    });
    // Cut inside call_3's arguments: after its header and two of its fragments.
    const call3Header = chunks.findIndex((chunk) => {
      const data = typeof chunk === 'string' ? chunk : chunk.data;
      return data.includes(`"id":"${openAIIds[2]}"`);
    });
    server = await startModelServer({
      responses: [{ type: 'sse', events: chunks.slice(0, call3Header + 3), end: 'destroy' }],
    });
    const { events, error } = await collect(openAIAgent(server).stream(seedQuestion));

    expect(ProviderError.isInstance(error)).toBe(true);
    expect((error as ProviderError).code).toBe('stream_interrupted');
    const failed = events.at(-1);
    expect(failed?.type).toBe('run-failed');
    expect(failed).toMatchObject({ code: 'stream_interrupted', round: 1 });
    expect(failed?.type === 'run-failed' && failed.message).toMatch(/call_H2dT9yBn4RkW7qS1vXc5Mg/);
    const readied = events.flatMap((event) =>
      event.type === 'tool-call-ready' ? [event.toolCall.id] : [],
    );
    expect(readied).toEqual([openAIIds[0], openAIIds[1]]);
    const started = events.flatMap((event) =>
      event.type === 'call-started' ? [event.callId] : [],
    );
    expect(started).not.toContain(openAIIds[2]);
    expect(
      failed?.type === 'run-failed' && failed.toolResults.map((result) => result.call_id),
    ).toEqual([openAIIds[0], openAIIds[1]]);
  });

  it('anthropic: the same, when the connection drops inside a tool_use block', async () => {
    const wire = anthropicMessageEvents(seedTurn(['toolu_1', 'toolu_2', 'toolu_3', 'toolu_4']), {
      toolName: sanitizeToolName,
      chunkSize: 5,
    });
    const thirdBlock = wire.findIndex((event) => {
      const data = typeof event === 'string' ? event : event.data;
      const parsed = parseJson(data) as { content_block?: { id?: string } };
      return parsed.content_block?.id === 'toolu_3';
    });
    server = await startModelServer({
      responses: [{ type: 'sse', events: wire.slice(0, thirdBlock + 2), end: 'destroy' }],
    });
    const { events, error } = await collect(anthropicAgent(server).stream(seedQuestion));
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'run-failed', code: 'stream_interrupted' });
    const started = events.flatMap((event) =>
      event.type === 'call-started' ? [event.callId] : [],
    );
    expect(started).toEqual(['toolu_1', 'toolu_2']);
  });
});

describe('provider failures', () => {
  it('an API error rejects run() with the ProviderError, after a run-failed event', async () => {
    server = await startModelServer({
      responses: [
        {
          type: 'json',
          status: 500,
          headers: { 'x-should-retry': 'false' },
          body: { error: { message: 'The server had an error.', type: 'server_error' } },
        },
      ],
    });
    const seen: string[] = [];
    const failure = openAIAgent(server).run('Hi', {
      onEvent: (event) => seen.push(event.type),
    });
    await expect(failure).rejects.toMatchObject({ code: 'api_error', status: 500 });
    expect(seen).toEqual(['run-started', 'round-started', 'run-failed']);
  });
});
