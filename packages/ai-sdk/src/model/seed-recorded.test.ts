// The seed's `$ref` chain and independent file calls, from ONE recorded stream of each of
// @ai-sdk/anthropic (Messages, extended thinking), @ai-sdk/google (Gemini 3's native
// streamGenerateContent, thought signatures) and @ai-sdk/amazon-bedrock (ConverseStream in
// AWS event-stream framing, Claude reasoning), through fromLanguageModel and a real MTPX
// agent. The follow-up must carry the provider's reasoning data exactly: each replay
// server refuses it otherwise, with the API's own error (checked here too).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Message } from '@mtpx/protocol';
import { ProviderError } from '@mtpx/providers';
import { afterEach, describe, expect, it } from 'vitest';
import { THINKING_FIRST_MESSAGE } from '../replay/anthropic-replay';
import { bedrockDelta } from '../replay/bedrock-replay';
import { SKIP_SIGNATURES } from '../replay/google-replay';
import { type ProviderReplay, providerReplay } from '../replay/provider-replays';
import type { Json } from '../replay/recorded';
import { startRecordedReplay } from '../replay/recorded-replay';
import type { ReplayServer } from '../replay/replay-server';
import { SEED_NOTE, SEED_QUESTION } from '../replay/seed-calls';
import { runSeed, SEED_OUTPUTS, type SeedRun } from '../replay/seed-run';

let server: ReplayServer | undefined;
let run: SeedRun | undefined;
afterEach(async () => {
  await server?.close();
  await run?.remove();
  server = undefined;
  run = undefined;
});

interface Case extends ProviderReplay {
  finalText: string;
  /**
   * The API's refusal of a follow-up without the reasoning data; `undefined` when the
   * package itself sends a documented stand-in instead (Gemini 3's dummy signature).
   */
  refusal: ((seed: Json[]) => { status: number; providerMessage: string }) | undefined;
}

const replay = providerReplay;
const textOf = (values: unknown[]) => values.filter((value) => typeof value === 'string').join('');
const anthropic = replay('@ai-sdk/anthropic');
const google = replay('@ai-sdk/google');
const bedrock = replay('@ai-sdk/amazon-bedrock');

const cases: Case[] = [
  {
    ...anthropic,
    finalText: textOf(
      anthropic.final.map((event) =>
        (event.delta as Json | undefined)?.type === 'text_delta'
          ? (event.delta as Json).text
          : undefined,
      ),
    ),
    refusal: () => ({ status: 400, providerMessage: THINKING_FIRST_MESSAGE(1, 'tool_use') }),
  },
  {
    ...google,
    finalText: textOf(
      google.final.flatMap((chunk) =>
        ((((chunk.candidates as Json[])[0] as Json).content as Json).parts as Json[]).map((part) =>
          part.thought === true ? undefined : part.text,
        ),
      ),
    ),
    // Without the signature @ai-sdk/google sends Gemini 3 the documented dummy value,
    // which the API accepts (the model's reasoning is lost): see the test below.
    refusal: undefined,
  },
  {
    ...bedrock,
    finalText: textOf(bedrock.final.map((event) => bedrockDelta(event).text)),
    refusal: () => ({
      status: 400,
      providerMessage: `The model returned the following errors: ${THINKING_FIRST_MESSAGE(1, 'tool_use')}`,
    }),
  },
];

describe.each(cases)('$name through fromLanguageModel', (testCase) => {
  it('runs the seed chain and the file calls of one recorded response in one tool round', async () => {
    const seed = testCase.seed();
    server = await startRecordedReplay(testCase.api, [
      { events: seed.events },
      { events: testCase.final },
    ]);
    run = await runSeed(testCase.provider(server.url));
    expect(run.error).toBeUndefined();
    expect(run.output?.finalText).toBe(testCase.finalText);
    const results = run.output?.toolResults ?? [];
    if (seed.callIds !== undefined)
      expect(results.map((result) => result.call_id)).toEqual(seed.callIds);
    expect(results.slice(0, 5).map((result) => result.output)).toEqual(SEED_OUTPUTS);
    expect(results[5]?.success).toBe(true);
    expect(await readFile(join(run.root, 'backup/notes.txt'), 'utf8')).toBe(SEED_NOTE);
    expect(server.requests).toHaveLength(2);
    expect(run.events.filter((event) => event.type === 'round-started')).toHaveLength(2);
    const { sent, issued } = testCase.reasoningCarried(server.requests[1]?.body ?? {}, seed.events);
    expect(sent).toEqual(issued);
  });

  it('the replay server refuses a follow-up without the reasoning data, as the API does', async () => {
    const seed = testCase.seed();
    server = await startRecordedReplay(testCase.api, [
      { events: seed.events },
      { events: testCase.final },
    ]);
    const provider = testCase.provider(server.url);
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
    expect(turn.message.tool_calls).toHaveLength(6);
    expect(turn.message.provider_parts?.length).toBeGreaterThan(0);
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
    if (testCase.refusal === undefined) {
      // Accepted, with the stand-in in place of the recorded signature.
      expect(failure).toMatchObject({ finishReason: 'stop' });
      expect(testCase.reasoningCarried(server.requests[1]?.body ?? {}, seed.events).sent).toBe(
        SKIP_SIGNATURES[0],
      );
      return;
    }
    expect(ProviderError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({
      code: 'api_error',
      isRetryable: false,
      ...testCase.refusal(seed.events),
    });
  });
});

it('the Gemini replay server refuses a signed call sent back without its signature, as the API does', async () => {
  const seed = google.seed();
  server = await startRecordedReplay(google.api, [
    { events: seed.events },
    { events: google.final },
  ]);
  const url = `${server.url}/v1beta/models/gemini-3-pro-preview:streamGenerateContent?alt=sse`;
  const post = (body: unknown) =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  await (await post({ contents: [{ role: 'user', parts: [{ text: SEED_QUESTION }] }] })).text();
  const calls = (
    ((((seed.events[0] as Json).candidates as Json[])[0] as Json).content as Json).parts as Json[]
  ).map((part) => ({ functionCall: part.functionCall }));
  const refused = await post({
    contents: [
      { role: 'user', parts: [{ text: SEED_QUESTION }] },
      { role: 'model', parts: calls },
    ],
  });
  expect(refused.status).toBe(400);
  expect(await refused.json()).toEqual({
    error: {
      code: 400,
      message:
        'Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call `default_api:calculator_subtract` , position 2. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.',
      status: 'INVALID_ARGUMENT',
    },
  });
});
