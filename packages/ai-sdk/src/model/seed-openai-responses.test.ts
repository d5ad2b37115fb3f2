// The seed's `$ref` chain and independent file calls, from ONE recorded Responses stream,
// through the real @ai-sdk/openai package (Responses API, store: false) and a real MTPX
// agent; the follow-up must carry the reasoning item with its encrypted content exactly,
// or the replay server refuses it with the API's own 400.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createOpenAI } from '@ai-sdk/openai';
import type { Message } from '@mtpx/protocol';
import { ProviderError } from '@mtpx/providers';
import { afterEach, describe, expect, it } from 'vitest';
import {
  recordedResponses,
  responsesRule,
  responsesSeedRound,
  responsesWire,
} from '../replay/openai-responses-replay';
import { providerReplay } from '../replay/provider-replays';
import type { Json } from '../replay/recorded';
import { type RecordedRound, startRecordedReplay } from '../replay/recorded-replay';
import type { ReplayServer } from '../replay/replay-server';
import { SEED_NOTE, SEED_QUESTION } from '../replay/seed-calls';
import { runSeed, SEED_OUTPUTS, type SeedRun } from '../replay/seed-run';
import { fromLanguageModel } from './from-language-model';

let server: ReplayServer | undefined;
let run: SeedRun | undefined;
afterEach(async () => {
  await server?.close();
  await run?.remove();
  server = undefined;
  run = undefined;
});

const api = {
  wire: responsesWire,
  headers: { 'content-type': 'text/event-stream' },
  rule: responsesRule,
};

const responsesModel = (url: string) => providerReplay('@ai-sdk/openai (Responses)').provider(url);

const reasoningItemOf = (events: readonly Json[]) =>
  events
    .filter((event) => event.type === 'response.output_item.done')
    .map((event) => event.item as Json)
    .find((item) => item.type === 'reasoning') as Json;

describe('@ai-sdk/openai (Responses) through fromLanguageModel', () => {
  it('runs the seed chain and the file calls of one recorded response in one tool round', async () => {
    const seed = responsesSeedRound();
    const final = recordedResponses().at(-1) as Json[];
    const rounds: RecordedRound[] = [{ events: seed.events }, { events: final }];
    server = await startRecordedReplay(api, rounds);
    run = await runSeed(responsesModel(server.url));
    expect(run.error).toBeUndefined();
    expect(run.output?.finalText).toBe('The final result is **570**.');
    const results = run.output?.toolResults ?? [];
    expect(results.map((result) => result.call_id)).toEqual(seed.callIds);
    expect(results.slice(0, 5).map((result) => result.output)).toEqual(SEED_OUTPUTS);
    expect(results[5]?.success).toBe(true);
    expect(await readFile(join(run.root, 'backup/notes.txt'), 'utf8')).toBe(SEED_NOTE);
    // One tool round: two requests, the six calls ready before the stream's end.
    expect(server.requests).toHaveLength(2);
    const rounds1 = run.events.filter((event) => event.type === 'round-started');
    expect(rounds1).toHaveLength(2);
    // The follow-up carries the recorded reasoning item, id and encrypted content exactly,
    // before the six calls and their outputs.
    const input = (server.requests[1]?.body?.input ?? []) as Json[];
    const recorded = reasoningItemOf(seed.events);
    const sent = input.find((item) => item.type === 'reasoning') as Json;
    expect(sent.id).toBe(recorded.id);
    expect(sent.encrypted_content).toBe(recorded.encrypted_content);
    expect(input.filter((item) => item.type !== undefined).map((item) => item.type)).toEqual([
      'reasoning',
      ...Array(6).fill('function_call'),
      ...Array(6).fill('function_call_output'),
    ]);
  });

  it('a provider named otherwise still hands its own reasoning back (parts belong to the model)', async () => {
    const seed = responsesSeedRound();
    server = await startRecordedReplay(api, [
      { events: seed.events },
      { events: recordedResponses().at(-1) as Json[] },
    ]);
    const provider = fromLanguageModel(
      createOpenAI({ apiKey: 'sk-test', baseURL: `${server.url}/v1` }).responses(
        'gpt-5.1-codex-max',
      ),
      { name: 'my-openai', settings: { providerOptions: { openai: { store: false } } } },
    );
    run = await runSeed(provider);
    expect(run.error).toBeUndefined();
    expect(run.events.find((event) => event.type === 'round-finished')).toMatchObject({
      message: {
        provider_parts: expect.arrayContaining([
          expect.objectContaining({ service: 'openai.responses' }),
        ]),
      },
    });
    expect(server.requests).toHaveLength(2);
  });

  it('the replay server refuses a follow-up without the reasoning item, as the API does', async () => {
    const seed = responsesSeedRound();
    server = await startRecordedReplay(api, [
      { events: seed.events },
      { events: recordedResponses().at(-1) as Json[] },
    ]);
    const provider = responsesModel(server.url);
    const tools = [
      {
        name: 'calculator.subtract',
        description: 'a − b',
        input_schema: { type: 'object' },
        tags: [],
        risk_level: 'read_only' as const,
      },
    ];
    const messages: Message[] = [{ role: 'user', content: SEED_QUESTION }];
    const turn = await provider.generate({ messages, tools });
    expect(turn.message.provider_parts?.map((part) => part.type)).toEqual([
      'reasoning',
      ...Array(6).fill('tool-call'),
    ]);
    const answered: Message[] = (turn.message.tool_calls ?? []).map((call) => ({
      role: 'tool',
      tool_call_id: call.id,
      name: call.name,
      content: '1',
    }));
    const { provider_parts: _dropped, ...withoutParts } = turn.message;
    const failure = await provider
      .generate({ messages: [...messages, withoutParts, ...answered], tools })
      .catch((error: unknown) => error);
    expect(ProviderError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({
      code: 'api_error',
      status: 400,
      isRetryable: false,
      providerCode: 'invalid_request_error',
    });
    const firstCall = (seed.events.find(
      (event) =>
        event.type === 'response.output_item.done' && (event.item as Json).type === 'function_call',
    )?.item ?? {}) as Json;
    expect((failure as ProviderError).providerMessage).toBe(
      `Item '${String(firstCall.id)}' of type 'function_call' was provided without its required 'reasoning' item: '${String(reasoningItemOf(seed.events).id)}'.`,
    );
  });
});
