// AI SDK 7 (language model specification v4) under Node 22: the seed from one recorded
// response of each of the four provider packages, in one tool round, a read-only call
// started while the stream is held open, and the reasoning data carried exactly into the
// follow-up (each replay server refuses it otherwise). Run by scripts/ai-sdk-7.sh, which
// installs Node 22 and the AI SDK 7 packages outside the workspace and sets
// MTPX_AI_SDK_7 to that prefix; vitest.config.ts leaves this file out otherwise.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Provider } from '@mtpx/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { PROVIDER_REPLAYS } from '../replay/provider-replays';
import type { Json } from '../replay/recorded';
import { startRecordedReplay } from '../replay/recorded-replay';
import type { ReplayServer } from '../replay/replay-server';
import { runSeed, SEED_OUTPUTS, type SeedRun } from '../replay/seed-run';
import { fromLanguageModel } from './from-language-model';
import type { AiSdkLanguageModel } from './language-model';

const prefix = process.env.MTPX_AI_SDK_7 ?? '';
const requireFromPrefix = createRequire(join(prefix, 'package.json'));
// biome-ignore lint/suspicious/noExplicitAny: the AI SDK 7 packages are loaded from outside the workspace.
const load = async (name: string): Promise<any> =>
  import(pathToFileURL(requireFromPrefix.resolve(name)).href);

const [openai, anthropic, google, bedrock, aiPackage] = await Promise.all([
  load('@ai-sdk/openai'),
  load('@ai-sdk/anthropic'),
  load('@ai-sdk/google'),
  load('@ai-sdk/amazon-bedrock'),
  load('ai/package.json'),
]);

/** The AI SDK 7 model of each replayed package, with the settings its AI SDK 6 case uses. */
const models: Record<string, (url: string) => { model: AiSdkLanguageModel; settings?: Json }> = {
  '@ai-sdk/openai (Chat Completions)': (url) => ({
    model: openai.createOpenAI({ apiKey: 'sk-test', baseURL: `${url}/v1` }).chat('gpt-4.1-nano'),
  }),
  '@ai-sdk/openai (Responses)': (url) => ({
    model: openai
      .createOpenAI({ apiKey: 'sk-test', baseURL: `${url}/v1` })
      .responses('gpt-5.1-codex-max'),
    settings: { providerOptions: { openai: { store: false } } },
  }),
  '@ai-sdk/anthropic': (url) => ({
    model: anthropic.createAnthropic({ apiKey: 'test', baseURL: `${url}/v1` })('claude-sonnet-4-5'),
    settings: {
      providerOptions: { anthropic: { thinking: { type: 'enabled', budgetTokens: 1024 } } },
    },
  }),
  '@ai-sdk/google': (url) => ({
    model: google.createGoogleGenerativeAI({ apiKey: 'test', baseURL: `${url}/v1beta` })(
      'gemini-3-pro-preview',
    ),
  }),
  '@ai-sdk/amazon-bedrock': (url) => ({
    model: bedrock.createAmazonBedrock({
      region: 'us-east-1',
      baseURL: url,
      accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
      secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    })('us.anthropic.claude-sonnet-4-5-20250929-v1:0'),
    settings: {
      providerOptions: { bedrock: { reasoningConfig: { type: 'enabled', budgetTokens: 1024 } } },
    },
  }),
};

let server: ReplayServer | undefined;
let run: SeedRun | undefined;
afterEach(async () => {
  await server?.close();
  await run?.remove();
  server = undefined;
  run = undefined;
});

it('runs under Node 22 with AI SDK 7', () => {
  expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(22);
  expect(String(aiPackage.default?.version ?? aiPackage.version)).toMatch(/^7\./);
});

describe.each(PROVIDER_REPLAYS)('AI SDK 7: $name', (replay) => {
  const key = Object.keys(models).find((name) => replay.name.startsWith(name)) as string;
  const provider = (url: string): Provider => {
    const { model, settings } = (
      models[key] as (url: string) => { model: AiSdkLanguageModel; settings?: Json }
    )(url);
    expect(model.specificationVersion).toBe('v4');
    return fromLanguageModel(model, settings === undefined ? {} : { settings });
  };

  it('the seed in one tool round, a call started mid-stream, the reasoning carried exactly', async () => {
    const seed = replay.seed();
    let started: () => void = () => {};
    const callStarted = new Promise<void>((resolve) => {
      started = resolve;
    });
    server = await startRecordedReplay(replay.api, [
      { events: seed.events, hold: { before: replay.closing(seed.events), until: callStarted } },
      { events: replay.final },
    ]);
    const order: string[] = [];
    run = await runSeed(provider(server.url), (event) => {
      order.push(event.type);
      if (event.type === 'call-started') started();
    });
    expect(run.error).toBeUndefined();
    const results = run.output?.toolResults ?? [];
    expect(results.slice(0, 5).map((result) => result.output)).toEqual(SEED_OUTPUTS);
    expect(results[5]?.success).toBe(true);
    // Two requests: the follow-up passed the replay server's reasoning rule, carrying the
    // reasoning data exactly.
    expect(server.requests).toHaveLength(2);
    const { sent, issued } = replay.reasoningCarried(server.requests[1]?.body ?? {}, seed.events);
    expect(sent).toEqual(issued);
    expect(order.indexOf('call-started')).toBeLessThan(order.indexOf('round-finished'));
  });

  it('the write call of a response cut off by the output-token limit never runs', async () => {
    const seed = replay.seed();
    server = await startRecordedReplay(replay.api, [
      { events: replay.cutByLength(seed.events) },
      { events: replay.final },
    ]);
    run = await runSeed(provider(server.url));
    expect(run.error).toBeUndefined();
    expect(run.events.find((event) => event.type === 'round-finished')).toMatchObject({
      finishReason: 'length',
    });
    expect(run.output?.toolResults[5]).toMatchObject({ success: false, skipped: true });
  });
});
