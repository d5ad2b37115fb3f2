import { sanitizeToolName } from '@mtpx/providers';
import {
  anthropicMessageEvents,
  type ModelServer,
  type SseEvent,
  startModelServer,
  startScriptedAnthropicServer,
} from '@mtpx/providers/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { parseJson } from '../__fixtures__/json';
import { compactBody } from '../__fixtures__/request-bodies';
import { anthropicAgent } from '../__fixtures__/sdk-agents';
import {
  anthropicIds,
  collect,
  finalTurn,
  heldBack,
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

const withText = { ...seedTurn(anthropicIds), text: 'I will chain the four steps.' };

describe('the seed chain through the Anthropic SDK against a Messages API server', () => {
  it('run(): ONE tool round, two model calls; the four results go back as tool_result blocks', async () => {
    server = await startScriptedAnthropicServer([withText, finalTurn]);
    const output = await anthropicAgent(server).run(seedQuestion);

    expect(server.requests).toHaveLength(2);
    expect(output).toMatchObject({
      final_text: '15 + (4 × (18 − 6)) / 3 = 31.',
      rounds: 2,
      stop_reason: 'final',
    });
    expect(output.tool_results.map((result) => result.output)).toEqual([12, 48, 16, 31]);
    expect(output.messages.filter((message) => message.role === 'tool')).toHaveLength(4);
    expect(compactBody(server.requests[1])).toMatchInlineSnapshot(`
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
                "text": "I will chain the four steps.",
                "type": "text",
              },
              {
                "id": "toolu_01A09q90qw90lq917835lq9",
                "input": {
                  "a": 18,
                  "b": 6,
                },
                "name": "calculator_subtract",
                "type": "tool_use",
              },
              {
                "id": "toolu_01BfZc3nV7pQ2wX8kR4tYm6",
                "input": {
                  "a": 4,
                  "b": {
                    "$ref": "call_1",
                  },
                },
                "name": "calculator_multiply",
                "type": "tool_use",
              },
              {
                "id": "toolu_01CgT5hJ9sL1dM3vN7bW2xK",
                "input": {
                  "a": {
                    "$ref": "call_2",
                  },
                  "b": 3,
                },
                "name": "calculator_divide",
                "type": "tool_use",
              },
              {
                "id": "toolu_01DkP8rF4aQ6eU0yH2cZ9sJ",
                "input": {
                  "a": 15,
                  "b": {
                    "$ref": "call_3",
                  },
                },
                "name": "calculator_add",
                "type": "tool_use",
              },
            ],
            "role": "assistant",
          },
          {
            "content": [
              {
                "content": "12",
                "tool_use_id": "toolu_01A09q90qw90lq917835lq9",
                "type": "tool_result",
              },
              {
                "content": "48",
                "tool_use_id": "toolu_01BfZc3nV7pQ2wX8kR4tYm6",
                "type": "tool_result",
              },
              {
                "content": "16",
                "tool_use_id": "toolu_01CgT5hJ9sL1dM3vN7bW2xK",
                "type": "tool_result",
              },
              {
                "content": "31",
                "tool_use_id": "toolu_01DkP8rF4aQ6eU0yH2cZ9sJ",
                "type": "tool_result",
              },
            ],
            "role": "user",
          },
        ],
        "model": "claude-sonnet-4-6",
        "stream": false,
        "system": "<REFERENCE_INSTRUCTIONS>",
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

  it('stream(): the same chain, streamed, in ONE tool round', async () => {
    server = await startScriptedAnthropicServer([withText, finalTurn], { chunkSize: 6 });
    const { events, output } = await collect(anthropicAgent(server).stream(seedQuestion));

    expect(server.requests).toHaveLength(2);
    expect(output?.final_text).toBe('15 + (4 × (18 − 6)) / 3 = 31.');
    expect(output?.tool_results.map((result) => result.output)).toEqual([12, 48, 16, 31]);
    const body = compactBody(server.requests[1]);
    expect(body.stream).toBe(true);
    expect(body.messages?.at(-1)).toMatchInlineSnapshot(`
      {
        "content": [
          {
            "content": "12",
            "tool_use_id": "toolu_01A09q90qw90lq917835lq9",
            "type": "tool_result",
          },
          {
            "content": "48",
            "tool_use_id": "toolu_01BfZc3nV7pQ2wX8kR4tYm6",
            "type": "tool_result",
          },
          {
            "content": "16",
            "tool_use_id": "toolu_01CgT5hJ9sL1dM3vN7bW2xK",
            "type": "tool_result",
          },
          {
            "content": "31",
            "tool_use_id": "toolu_01DkP8rF4aQ6eU0yH2cZ9sJ",
            "type": "tool_result",
          },
        ],
        "role": "user",
      }
    `);
    const text = events.flatMap((event) => (event.type === 'text-delta' ? [event.delta] : []));
    expect(text.join('')).toBe('I will chain the four steps.15 + (4 × (18 − 6)) / 3 = 31.');
  });
});

describe('the tools the Anthropic adapter sends', () => {
  it('sends the tools’ own schemas and the short instructions as `system`', async () => {
    server = await startScriptedAnthropicServer([finalTurn]);
    await anthropicAgent(server).run('Hi');
    const body = server.requests[0]?.body as { system: unknown; tools: unknown[] };
    expect({ system: body.system, tools: body.tools.slice(0, 1) }).toMatchInlineSnapshot(`
      {
        "system": "Make all tool calls you can in one response. If an argument is another call's output, write {"$ref":"call_N"} (your Nth call here, or an earlier id); add "$path":"/a/0" for a part.",
        "tools": [
          {
            "description": "Add two numbers: a + b.",
            "input_schema": {
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
            "name": "calculator_add",
          },
        ],
      }
    `);
  });

  it('with strictTools, sends strict tools that accept a {"$ref": …} wherever a value goes', async () => {
    server = await startScriptedAnthropicServer([finalTurn]);
    await anthropicAgent(server, { strictTools: true }).run('Hi');
    const body = server.requests[0]?.body as { tools: Array<{ strict?: boolean }> };
    expect(body.tools[0]).toMatchInlineSnapshot(`
      {
        "description": "Add two numbers: a + b.",
        "input_schema": {
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
        "name": "calculator_add",
        "strict": true,
      }
    `);
    // Five calculator tools: 9 value positions, each a union, within the 16 Anthropic allows.
    expect(body.tools.map((tool) => tool.strict)).toEqual([true, true, true, true, true]);
  });
});

/** Where the 4th tool_use block begins. */
function fourthCallBegins(event: SseEvent): boolean {
  const data = typeof event === 'string' ? event : event.data;
  const parsed = parseJson(data) as { type: string; content_block?: { type: string; id?: string } };
  return parsed.type === 'content_block_start' && parsed.content_block?.id === anthropicIds[3];
}

describe('eager dispatch through the Anthropic SDK', () => {
  it('runs call_1 … call_3 before the model has begun call_4', async () => {
    const thirdFinished = signal();
    const events = anthropicMessageEvents(withText, { toolName: sanitizeToolName, chunkSize: 6 });
    server = await startModelServer({
      responses: [
        { type: 'sse', events: heldBack(events, fourthCallBegins, thirdFinished.promise) },
        { type: 'sse', events: anthropicMessageEvents(finalTurn) },
      ],
    });
    const seen: AgentEvent[] = [];
    const stream = anthropicAgent(server).stream(seedQuestion, {
      onEvent: (event) => {
        if (event.type === 'call-finished' && event.callId === anthropicIds[2]) {
          thirdFinished.resolve();
        }
      },
    });
    for await (const event of stream) seen.push(event);
    expect((await stream.result).tool_results.map((result) => result.output)).toEqual([
      12, 48, 16, 31,
    ]);
    const call4Begins = positionOf(
      seen,
      (event) => event.type === 'tool-call-delta' && event.index === 3,
    );
    const finished = (id: string | undefined) =>
      positionOf(seen, (event) => event.type === 'call-finished' && event.callId === id);
    expect(call4Begins).toBeGreaterThan(0);
    for (const id of anthropicIds.slice(0, 3)) expect(finished(id)).toBeLessThan(call4Begins);
    expect(finished(anthropicIds[3])).toBeGreaterThan(call4Begins);
  });
});
