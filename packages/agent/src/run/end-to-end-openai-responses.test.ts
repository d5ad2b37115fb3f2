// OpenAI's Responses API through the agent (issue 25): reasoning items survive every tool
// round, sessions and stores; calls start while a recorded stream is still arriving; a write
// call of an incomplete response never runs. The scripted OpenAI server checks each
// Responses request as the API does (a call without its reasoning item, an unstored
// reference, a call_id that matches nothing are the API's own 400 / 404 answers).
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineTool } from '@mtpx/executor';
import { calculatorToolkit } from '@mtpx/executor/toolkits';
import { createOpenAIResponsesProvider } from '@mtpx/providers/openai';
import {
  type ModelServer,
  openAIResponseEvents,
  type ScriptedTurn,
  type SseEvent,
  startModelServer,
  startScriptedOpenAIServer,
} from '@mtpx/providers/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { collect, heldBack } from '../__fixtures__/seed';
import { createAgent, InMemorySessionStore, JsonFileSessionStore } from '../index';

type Json = Record<string, unknown>;
let server: ModelServer | undefined;
let directory: string | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  if (directory !== undefined) rmSync(directory, { recursive: true, force: true });
  directory = undefined;
});

const responsesProvider = (url: string, store: boolean) =>
  createOpenAIResponsesProvider({
    model: 'gpt-5-mini',
    apiKey: 'sk-test',
    baseURL: `${url}/v1`,
    maxRetries: 0,
    store,
    reasoningEffort: 'low',
    reasoningSummary: 'auto',
  });

/** Two tool rounds, each after reasoning, then the answer (and one more for a follow-up run). */
const twoRounds: ScriptedTurn[] = [
  {
    reasoning: 'First 18 − 6, then times 4.',
    toolCalls: [
      { id: 'call_1', name: 'calculator.subtract', arguments: { a: 18, b: 6 } },
      { id: 'call_2', name: 'calculator.multiply', arguments: { a: 4, b: { $ref: 'call_1' } } },
    ],
  },
  {
    reasoning: 'Now divide by 3 and add 15.',
    toolCalls: [
      { id: 'call_3', name: 'calculator.divide', arguments: { a: 48, b: 3 } },
      { id: 'call_4', name: 'calculator.add', arguments: { a: 15, b: { $ref: 'call_3' } } },
    ],
  },
  { text: '15 + (4 × (18 − 6)) / 3 = 31.' },
  { text: 'Twice that is 62.' },
];
const question = 'What is 15 + (4 × (18 − 6)) / 3?';
const inputOf = (index: number) =>
  (((server?.requests[index]?.body ?? {}) as Json).input ?? []) as Json[];
const typesOf = (input: Json[]) => input.map((item) => String(item.type ?? item.role));

describe('the Responses API through the agent', () => {
  for (const store of [true, false]) {
    for (const mode of ['run', 'stream'] as const) {
      it(`${mode}, store: ${store}: two tool rounds, each reasoning item sent back as the API requires`, async () => {
        server = await startScriptedOpenAIServer(twoRounds, { chunkSize: 5 });
        const agent = createAgent({
          provider: responsesProvider(server.url, store),
          tools: [calculatorToolkit()],
        });
        const output =
          mode === 'run'
            ? await agent.run(question)
            : (await collect(agent.stream(question))).output;
        expect(output?.finalText).toBe('15 + (4 × (18 − 6)) / 3 = 31.');
        expect(output?.toolResults.map((result) => result.output)).toEqual([12, 48, 16, 31]);
        expect(server.requests).toHaveLength(3);
        const reasoning = store ? 'item_reference' : 'reasoning';
        expect(typesOf(inputOf(2)).slice(-10)).toEqual([
          reasoning,
          'function_call',
          'function_call',
          'function_call_output',
          'function_call_output',
          reasoning,
          'function_call',
          'function_call',
          'function_call_output',
          'function_call_output',
        ]);
        const replayed = inputOf(2).filter((item) => item.type === reasoning);
        if (store)
          expect(replayed.map((item) => item.id)).toEqual(['rs_scripted_1', 'rs_scripted_2']);
        else {
          expect(((server.requests[0]?.body ?? {}) as Json).include).toEqual([
            'reasoning.encrypted_content',
          ]);
          expect(
            replayed.every((item) => String(item.encrypted_content).startsWith('gAAAAB')),
          ).toBe(true);
        }
      });
    }

    for (const kind of ['memory', 'file'] as const) {
      it(`store: ${store}: a session (${kind}) read by another agent replays the items unchanged`, async () => {
        server = await startScriptedOpenAIServer(twoRounds);
        directory = mkdtempSync(join(tmpdir(), 'mtpx-responses-'));
        const memory = new InMemorySessionStore();
        const sessionStore = () =>
          kind === 'memory' ? memory : new JsonFileSessionStore({ directory: directory as string });
        const first = createAgent({
          provider: responsesProvider(server.url, store),
          tools: [calculatorToolkit()],
          sessionStore: sessionStore(),
        });
        await first.run(question, { sessionId: 'chat-1' });
        // Another agent (and, for files, another store object reading the session's file).
        const second = createAgent({
          provider: responsesProvider(server.url, store),
          tools: [calculatorToolkit()],
          sessionStore: sessionStore(),
        });
        const output = await second.run('And twice that?', { sessionId: 'chat-1' });
        expect(output.finalText).toBe('Twice that is 62.');
        // The follow-up carries the first run's items exactly as the first run sent them.
        expect(inputOf(3).slice(0, inputOf(2).length)).toEqual(inputOf(2));
      });
    }
  }

  it('a recorded Responses stream: the read-only call starts while the stream is still arriving', async () => {
    // The first response of a recorded gpt-5 run (vercel/ai, Apache-2.0; see
    // packages/providers/src/__fixtures__/responses/SOURCES.md): reasoning, then one call.
    const recorded = readFileSync(
      join(
        import.meta.dirname,
        '../../../providers/src/__fixtures__/responses/openai-reasoning-encrypted-content.1.chunks.txt',
      ),
      'utf8',
    )
      .split('\n')
      .filter((line) => line !== '');
    const firstResponse = recorded.slice(
      0,
      recorded.findIndex((line, index) => index > 0 && line.includes('"response.created"')),
    );
    const events: SseEvent[] = firstResponse.map((data) => ({
      event: String((JSON.parse(data) as Json).type),
      data,
    }));
    let release: (value?: unknown) => void = () => {};
    const gate = new Promise((resolve) => {
      release = resolve;
    });
    server = await startModelServer({
      responses: [
        {
          type: 'sse',
          events: heldBack(
            events,
            (event) => typeof event !== 'string' && event.event === 'response.completed',
            gate,
          ),
        },
        { type: 'sse', events: openAIResponseEvents({ text: 'It is 19.' }) },
      ],
    });
    const calculator = defineTool({
      name: 'calculator',
      description: 'Add or multiply two numbers.',
      risk_level: 'read_only',
      input_schema: {
        type: 'object',
        properties: { a: { type: 'number' }, b: { type: 'number' }, op: { type: 'string' } },
      },
      execute: async ({ a, b, op }) =>
        op === 'add' ? Number(a) + Number(b) : Number(a) * Number(b),
    });
    const agent = createAgent({
      provider: responsesProvider(server.url, false),
      tools: [calculator],
    });
    const stream = agent.stream('What is 12 + 7?');
    const seen: string[] = [];
    for await (const event of stream) {
      seen.push(event.type);
      if (event.type === 'call-started') {
        // response.completed has not been sent yet: the call started mid-stream.
        expect(seen).not.toContain('round-finished');
        release();
      }
    }
    const output = await stream.result;
    expect(output.toolResults).toMatchObject([
      { call_id: 'call_AB6AaRZ1FYZB2RwS6A5vbdqn', success: true, output: 19 },
    ]);
    expect(seen.indexOf('call-started')).toBeLessThan(seen.indexOf('round-finished'));
  });

  it('a write call of a response that ends incomplete (max_output_tokens) never runs', async () => {
    directory = mkdtempSync(join(tmpdir(), 'mtpx-responses-'));
    const notes = join(directory, 'notes.txt');
    server = await startScriptedOpenAIServer(
      [
        {
          reasoning: 'Add, then note it.',
          toolCalls: [
            { id: 'call_read', name: 'calculator.add', arguments: { a: 1, b: 2 } },
            { id: 'call_write', name: 'notes.append', arguments: { line: 'paid' } },
          ],
          finishReason: 'length',
        },
        { text: 'Done.' },
      ],
      { chunkSize: 4 },
    );
    const noteTool = defineTool({
      name: 'notes.append',
      description: 'Append a line to the notes file.',
      risk_level: 'write',
      input_schema: {
        type: 'object',
        properties: { line: { type: 'string' } },
        required: ['line'],
      },
      execute: async ({ line }) => {
        await appendFile(notes, `${String(line)}\n`);
        return 'appended';
      },
    });
    const agent = createAgent({
      provider: responsesProvider(server.url, true),
      tools: [calculatorToolkit(), noteTool],
    });
    const { events, output } = await collect(agent.stream('Pay and note it.'));
    expect(existsSync(notes)).toBe(false);
    expect(output?.toolResults[0]).toMatchObject({
      call_id: 'call_read',
      success: true,
      output: 3,
    });
    expect(output?.toolResults[1]).toMatchObject({
      call_id: 'call_write',
      success: false,
      skipped: true,
    });
    expect(
      events.some((event) => event.type === 'call-started' && event.callId === 'call_write'),
    ).toBe(false);
    // The follow-up request was accepted: every call of the turn has its output.
    expect(typesOf(inputOf(1)).filter((type) => type === 'function_call_output')).toHaveLength(2);
  });
});

/** The recorded Responses streams of `@mtpx/providers`' fixtures (vercel/ai, Apache-2.0; see their SOURCES.md). */
const recordings = join(import.meta.dirname, '../../../providers/src/__fixtures__/responses');
const recordedResponses = (name: string): Json[][] => {
  const streams: Json[][] = [];
  for (const line of readFileSync(join(recordings, name), 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const event = JSON.parse(line) as Json;
    if (event.type === 'response.created' || streams.length === 0) streams.push([]);
    streams.at(-1)?.push(event);
  }
  return streams;
};

describe('every recorded Responses stream through the agent', () => {
  const names = readdirSync(recordings).filter((name) => name.endsWith('.chunks.txt'));
  it('finds the recordings', () => expect(names.length).toBeGreaterThanOrEqual(30));
  for (const name of names) {
    it(name, async () => {
      const [events = []] = recordedResponses(name);
      const done = events
        .filter((event) => event.type === 'response.output_item.done')
        .map((event) => event.item as Json);
      const calls = done
        .filter((item) => item.type === 'function_call')
        .map((item) => String(item.call_id));
      // The items the API runs itself (the adapter's list: hosted tools, programs, compaction).
      const serverTypes = [
        'web_search_call',
        'file_search_call',
        'code_interpreter_call',
        'image_generation_call',
        'mcp_call',
        'mcp_list_tools',
        'mcp_approval_request',
        'tool_search_call',
        'tool_search_output',
        'program',
        'program_output',
        'compaction',
      ];
      const serverItems = events.filter((event) => {
        const item = (event.item ?? {}) as Json;
        return (
          event.type === 'response.output_item.added' &&
          serverTypes.includes(String(item.type)) &&
          item.execution !== 'client'
        );
      }).length;
      server = await startModelServer({
        responses: [
          {
            type: 'sse',
            events: events.map((event) => ({
              event: String(event.type),
              data: JSON.stringify(event),
            })),
          },
          { type: 'sse', events: openAIResponseEvents({ text: 'Done.' }) },
        ],
      });
      const agent = createAgent({
        provider: responsesProvider(server.url, true),
        tools: [calculatorToolkit()],
      });
      const run = await collect(agent.stream('Go.'));
      const failed = events.find((event) => event.type === 'response.failed');
      if (failed !== undefined) {
        expect(run.error).toMatchObject({
          providerCode: ((failed.response as Json).error as Json).code,
        });
        return;
      }
      expect(run.error).toBeUndefined();
      // Every recorded function call reached the executor, in order, none of the server's items.
      expect(
        run.events.flatMap((event) =>
          event.type === 'tool-call-ready' ? [event.toolCall.id] : [],
        ),
      ).toEqual(calls);
      expect(run.output?.toolResults.map((result) => result.call_id)).toEqual(calls);
      expect(run.events.filter((event) => event.type === 'server-tool-used')).toHaveLength(
        serverItems,
      );
      expect(server.requests).toHaveLength(calls.length > 0 ? 2 : 1);
    });
  }
});
