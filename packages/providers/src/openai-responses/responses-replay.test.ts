import type { Message, ProviderTurn, ToolSpec } from '@mtpx/protocol';
import { describe, expect, it } from 'vitest';
import { modelCall } from '../__fixtures__/recorded-answers';
import { recordedStreams } from '../__fixtures__/responses-recordings';
import { responsesReplayServerPerTest } from '../__fixtures__/responses-replay-server';
import { ProviderError } from '../provider-error';
import { createOpenAIResponsesProvider } from './responses-provider';

type Json = Record<string, unknown>;
const server = responsesReplayServerPerTest();

/** The recorded run: reasoning then `calculator` add, two more calls, then the answer (570). */
const run = recordedStreams('openai-reasoning-encrypted-content.1.chunks.txt');
const calculator: ToolSpec = {
  name: 'calculator',
  description: 'Add or multiply two numbers.',
  input_schema: {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' }, op: { type: 'string' } },
    required: ['a', 'b', 'op'],
  },
  tags: [],
  risk_level: 'read_only',
};
const compute = (args: Json) =>
  String(args.op === 'add' ? Number(args.a) + Number(args.b) : Number(args.a) * Number(args.b));
const recordedItem = (response: number, index: number) =>
  run[response]?.find(
    (event) => event.type === 'response.output_item.done' && event.output_index === index,
  )?.item as Json;

const providerFor = (url: string, store: boolean) =>
  createOpenAIResponsesProvider({
    model: 'gpt-5-mini',
    apiKey: 'sk-test',
    baseURL: `${url}/v1`,
    maxRetries: 0,
    store,
    reasoningEffort: 'high',
    reasoningSummary: 'detailed',
  });

/** The agent loop in miniature, with a hook on the messages before each request. */
async function rounds(
  store: boolean | ((round: number) => boolean),
  mode: 'whole' | 'stream',
  url: string,
  edit: (messages: Message[], round: number) => void = () => {},
) {
  const messages: Message[] = [
    { role: 'user', content: 'What is (12 + 7) × 3 × 10? Use the calculator.' },
  ];
  const turns: ProviderTurn[] = [];
  for (let round = 0; round < 4; round++) {
    edit(messages, round);
    const provider = providerFor(url, typeof store === 'function' ? store(round) : store);
    const { turn } = await modelCall(provider, { messages, tools: [calculator] }, mode);
    turns.push(turn);
    messages.push(turn.message);
    const calls = turn.message.tool_calls ?? [];
    if (calls.length === 0) break;
    for (const call of calls) {
      messages.push({
        role: 'tool',
        tool_call_id: call.id,
        name: call.name,
        content: compute(call.arguments),
      });
    }
  }
  return { turns, messages };
}

const inputOf = (request: number) =>
  ((server.requests[request]?.body as Json | undefined)?.input ?? []) as Json[];

describe('a recorded reasoning run through the Responses replay server', () => {
  for (const mode of ['whole', 'stream'] as const) {
    it(`${mode}, store: false: each reasoning item goes back whole, encrypted, right before its call`, async () => {
      const { url } = await server.start(run);
      const { turns } = await rounds(false, mode, url);
      expect(turns.map((turn) => turn.finishReason)).toEqual([
        'tool_calls',
        'tool_calls',
        'tool_calls',
        'stop',
      ]);
      expect(turns.at(-1)?.message.content).toBe('The final result is **570**.');
      expect(turns[0]?.reasoning).toContain('Calculating step-by-step');
      const first = server.requests[0]?.body as Json;
      expect(first.store).toBe(false);
      expect(first.include).toEqual(['reasoning.encrypted_content']);
      expect(first.reasoning).toEqual({ effort: 'high', summary: 'detailed' });
      const reasoning = recordedItem(0, 0);
      const call = recordedItem(0, 1);
      expect(inputOf(1)).toEqual([
        { role: 'user', content: 'What is (12 + 7) × 3 × 10? Use the calculator.' },
        reasoning,
        call,
        { type: 'function_call_output', call_id: 'call_AB6AaRZ1FYZB2RwS6A5vbdqn', output: '19' },
      ]);
      expect(typeof reasoning.encrypted_content).toBe('string');
      expect(inputOf(3).filter((item) => item.type === 'function_call_output')).toEqual([
        { type: 'function_call_output', call_id: 'call_AB6AaRZ1FYZB2RwS6A5vbdqn', output: '19' },
        { type: 'function_call_output', call_id: 'call_Q6pW65MUgW9vF59BmItYGos3', output: '57' },
        { type: 'function_call_output', call_id: 'call_Zl5vIMnD7dVAjgU6FkhmiCZh', output: '570' },
      ]);
    });

    it(`${mode}, store: true: reasoning goes back by item_reference, the call whole with its item id`, async () => {
      const { url } = await server.start(run);
      const { turns } = await rounds(true, mode, url);
      expect(turns.at(-1)?.message.content).toBe('The final result is **570**.');
      const first = server.requests[0]?.body as Json;
      expect(first.store).toBe(true);
      expect(first.include).toBeUndefined();
      // Without `include`, the API sends no encrypted content: none is kept.
      const part = turns[0]?.message.provider_parts?.find((each) => each.type === 'reasoning');
      expect(((part?.data ?? {}) as Json).encrypted_content).toBeUndefined();
      expect(inputOf(1).slice(1, 3)).toEqual([
        { type: 'item_reference', id: recordedItem(0, 0).id },
        { ...recordedItem(0, 1) },
      ]);
    });
  }

  it('the replay server answers the real 400 for a call sent without the reasoning that preceded it', async () => {
    const { url } = await server.start(run);
    const caught = await rounds(true, 'stream', url, (messages, round) => {
      if (round !== 1) return;
      const assistant = messages[1] as Extract<Message, { role: 'assistant' }>;
      assistant.provider_parts = assistant.provider_parts?.filter(
        (part) => part.type !== 'reasoning',
      );
    }).catch((error: unknown) => error);
    expect(ProviderError.isInstance(caught)).toBe(true);
    expect((caught as ProviderError).status).toBe(400);
    expect((caught as ProviderError).providerMessage).toBe(
      `Item '${String(recordedItem(0, 1).id)}' of type 'function_call' was provided without its required 'reasoning' item: '${String(recordedItem(0, 0).id)}'.`,
    );
  });

  it('… and for a reasoning item sent without the call that followed it', async () => {
    const { url } = await server.start(run);
    const caught = await rounds(true, 'whole', url, (messages, round) => {
      if (round !== 1) return;
      const assistant = messages[1] as Extract<Message, { role: 'assistant' }>;
      assistant.provider_parts = assistant.provider_parts?.filter(
        (part) => part.type !== 'function_call',
      );
      assistant.tool_calls = [];
      messages.splice(2, 1);
    }).catch((error: unknown) => error);
    expect((caught as ProviderError).providerMessage).toBe(
      `Item '${String(recordedItem(0, 0).id)}' of type 'reasoning' was provided without its required following item.`,
    );
  });

  it('… for a function_call_output whose call_id matches no call', async () => {
    const { url } = await server.start(run);
    const caught = await rounds(false, 'stream', url, (messages, round) => {
      if (round === 1) (messages[2] as { tool_call_id: string }).tool_call_id = 'call_unknown';
    }).catch((error: unknown) => error);
    expect((caught as ProviderError).status).toBe(400);
    expect((caught as ProviderError).providerMessage).toBe(
      'No tool call found for function call output with call_id call_unknown.',
    );
  });

  it('… the 404 for an item_reference to a response that was not stored', async () => {
    const { url } = await server.start(run);
    const caught = await rounds((round) => round === 1, 'stream', url).catch(
      (error: unknown) => error,
    );
    expect((caught as ProviderError).status).toBe(404);
    expect((caught as ProviderError).code).toBe('not_found');
    expect((caught as ProviderError).providerMessage).toBe(
      `Item with id '${String(recordedItem(0, 0).id)}' not found. Items are not persisted when \`store\` is set to false. Try again with \`store\` set to true, or remove this item from your input.`,
    );
  });

  it('… the same 404 for an unstored reasoning item sent without its encrypted content', async () => {
    const { url } = await server.start(run);
    const caught = await rounds(false, 'stream', url, (messages, round) => {
      if (round !== 1) return;
      for (const part of (messages[1] as Extract<Message, { role: 'assistant' }>).provider_parts ??
        []) {
        if (part.type === 'reasoning') delete (part.data as Json).encrypted_content;
      }
    }).catch((error: unknown) => error);
    expect((caught as ProviderError).status).toBe(404);
  });

  it('… and invalid_encrypted_content for encrypted content it did not issue', async () => {
    const { url } = await server.start(run);
    const caught = await rounds(false, 'whole', url, (messages, round) => {
      if (round !== 1) return;
      for (const part of (messages[1] as Extract<Message, { role: 'assistant' }>).provider_parts ??
        []) {
        if (part.type === 'reasoning') (part.data as Json).encrypted_content = 'gAAAAtampered==';
      }
    }).catch((error: unknown) => error);
    expect((caught as ProviderError).status).toBe(400);
    expect((caught as ProviderError).providerCode).toBe('invalid_encrypted_content');
  });

  it('server-run items (web search) go back by reference under store, each after its reasoning', async () => {
    const [search = []] = recordedStreams('openai-web-search-tool.1.chunks.txt');
    const [answer = []] = recordedStreams('openai-phase.1.chunks.txt');
    const { url } = await server.start([search, answer]);
    const provider = providerFor(url, true);
    const messages: Message[] = [{ role: 'user', content: 'What happened in AI today?' }];
    const { turn } = await modelCall(provider, { messages, tools: [] }, 'stream');
    messages.push(turn.message, { role: 'user', content: 'And yesterday?' });
    await modelCall(provider, { messages, tools: [] }, 'whole');
    const items = search
      .filter((event) => event.type === 'response.output_item.done')
      .map((event) => event.item as Json);
    const replayed = inputOf(1).slice(1, -1);
    expect(replayed.map((item) => item.id)).toEqual(items.map((item) => item.id));
    expect(replayed.map((item) => item.type)).toEqual(
      items.map((item) => (item.type === 'message' ? 'message' : 'item_reference')),
    );
  });

  it('programmatic tool calling under store: false: reasoning and the program go back whole, the call after them', async () => {
    const [first = []] = recordedStreams('programmatic-tool-calling.1.chunks.txt');
    const [second = []] = recordedStreams('programmatic-tool-calling.2.chunks.txt');
    const { url } = await server.start([first, second]);
    const provider = providerFor(url, false);
    const messages: Message[] = [{ role: 'user', content: 'Check the inventory.' }];
    const { turn, events } = await modelCall(provider, { messages, tools: [] }, 'stream');
    expect(events.filter((event) => event.type === 'server-tool-used')).toMatchObject([
      { blockType: 'program' },
    ]);
    const [call] = turn.message.tool_calls ?? [];
    messages.push(turn.message, {
      role: 'tool',
      tool_call_id: String(call?.id),
      name: String(call?.name),
      content: '{"stock":3}',
    });
    await modelCall(provider, { messages, tools: [] }, 'stream');
    const items = first
      .filter((event) => event.type === 'response.output_item.done')
      .map((event) => event.item as Json);
    expect(inputOf(1).slice(1)).toEqual([
      ...items,
      { type: 'function_call_output', call_id: call?.id, output: '{"stock":3}' },
    ]);
  });
});
