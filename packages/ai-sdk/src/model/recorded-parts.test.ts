// What fromLanguageModel makes of recorded streams beyond the seed: provider-executed
// calls, usage with cache and reasoning tokens, API errors, broken streams, cancellation,
// and parts of another model's turn. Real provider packages, replay servers on 127.0.0.1.
import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import type { Message, ProviderEvent, ToolSpec } from '@mtpx/protocol';
import { ProviderError } from '@mtpx/providers';
import { afterEach, describe, expect, it } from 'vitest';
import { anthropicRecording, anthropicSeedRound, anthropicWire } from '../replay/anthropic-replay';
import { googleRecording, googleWire } from '../replay/google-replay';
import { recordedResponses, responsesWire } from '../replay/openai-responses-replay';
import { providerReplay } from '../replay/provider-replays';
import { type Json, recordedBody, recordedChunks } from '../replay/recorded';
import { startRecordedReplay } from '../replay/recorded-replay';
import { errorAnswer, type ReplayServer, startReplayServer } from '../replay/replay-server';
import { fromLanguageModel } from './from-language-model';

let server: ReplayServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const sse = { 'content-type': 'text/event-stream' };
const question: Message[] = [{ role: 'user', content: 'Go.' }];
const subtract: ToolSpec = {
  name: 'calculator.subtract',
  description: 'a − b',
  input_schema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } },
  tags: [],
  risk_level: 'read_only',
};
const anthropicModel = (url: string) =>
  createAnthropic({ apiKey: 'test', baseURL: `${url}/v1` })('claude-sonnet-4-5');

async function collect(
  events: AsyncIterable<ProviderEvent>,
): Promise<{ events: ProviderEvent[]; error?: unknown }> {
  const seen: ProviderEvent[] = [];
  try {
    for await (const event of events) seen.push(event);
    return { events: seen };
  } catch (error) {
    return { events: seen, error };
  }
}

describe('provider-executed calls', () => {
  it("a recorded web search is the API's: announced, kept on the turn, never a call, handed back next round", async () => {
    const recorded = anthropicRecording('anthropic-web-search-tool.1.chunks.txt');
    server = await startRecordedReplay({ wire: anthropicWire, headers: sse }, [
      { events: recorded },
      { events: anthropicRecording('anthropic-text.chunks.txt') },
    ]);
    const provider = fromLanguageModel(anthropicModel(server.url), {
      providerTools: {
        web_search: { type: 'provider', id: 'anthropic.web_search_20250305', args: {} },
      },
    });
    const { events, error } = await collect(
      provider.stream({ messages: question, tools: [subtract] }),
    );
    expect(error).toBeUndefined();
    expect(events.filter((event) => event.type === 'tool-call-ready')).toEqual([]);
    expect(events.filter((event) => event.type === 'server-tool-used')).toEqual([
      {
        type: 'server-tool-used',
        blockType: 'provider-executed-tool',
        id: 'srvtoolu_01Bj5uzzLcYG5hfueSLcDH8k',
        name: 'web_search',
      },
    ]);
    const finish = events.at(-1) as Extract<ProviderEvent, { type: 'finish' }>;
    expect(finish.turn.finishReason).toBe('stop');
    expect(finish.turn.message.tool_calls).toBeUndefined();
    const types = finish.turn.message.provider_parts?.map((part) => part.type) ?? [];
    expect(types.slice(0, 2)).toEqual(['provider-tool-call', 'provider-tool-result']);
    expect(new Set(types.slice(2))).toEqual(new Set(['text', 'source']));
    // The next request sends the server's blocks back as the API wrote them.
    await provider.generate({
      messages: [...question, finish.turn.message, { role: 'user', content: 'Thanks.' }],
      tools: [subtract],
    });
    const assistant = ((server.requests[1]?.body?.messages as Json[]) ?? []).find(
      (message) => message.role === 'assistant',
    );
    const content = (assistant?.content ?? []) as Json[];
    expect(content.slice(0, 2).map((block) => block.type)).toEqual([
      'server_tool_use',
      'web_search_tool_result',
    ]);
    expect(content[0]).toMatchObject({
      id: 'srvtoolu_01Bj5uzzLcYG5hfueSLcDH8k',
      name: 'web_search',
      input: { query: 'tech news today September 26 2025' },
    });
  });
});

describe('usage', () => {
  it('reads input, output, cache and reasoning tokens of each package', async () => {
    const google = googleRecording('google-tool-call-gemini3.chunks.txt');
    server = await startRecordedReplay({ wire: googleWire, headers: sse }, [{ events: google }]);
    const gemini = fromLanguageModel(
      createGoogleGenerativeAI({ apiKey: 'test', baseURL: `${server.url}/v1beta` })(
        'gemini-3-pro-preview',
      ),
    );
    const turn = await gemini.generate({ messages: question, tools: [] });
    // usageMetadata: promptTokenCount 29, candidatesTokenCount 15, thoughtsTokenCount 804.
    expect(turn.usage).toEqual({
      inputTokens: 29,
      outputTokens: 819,
      totalTokens: 848,
      cachedInputTokens: 0,
      cacheReadTokens: 0,
      reasoningTokens: 804,
    });
    expect(turn.model).toBe('gemini-3-pro-preview');
    expect(turn.responseId).toBe('QHiLaa6LBrb8vdIPoNztsAg');
    await server.close();

    const responses = recordedResponses()[0] as Json[];
    server = await startRecordedReplay({ wire: responsesWire, headers: sse }, [
      { events: responses },
    ]);
    const openai = providerReplay('@ai-sdk/openai (Responses)').provider(server.url);
    const calls = await openai.generate({ messages: question, tools: [] });
    // usage: input 134 (cached 0), output 28 (reasoning 0).
    expect(calls.usage).toEqual({
      inputTokens: 134,
      outputTokens: 28,
      totalTokens: 162,
      cachedInputTokens: 0,
      cacheReadTokens: 0,
      reasoningTokens: 0,
    });
    expect(calls.finishReason).toBe('tool_calls');
    expect(calls.reasoning).toContain('Calculating step-by-step');
  });
});

describe('errors', () => {
  it("an API error is a ProviderError with the API's status, message, code and retryability", async () => {
    const body = recordedBody('google', 'google-429-retry-info.json');
    server = await startReplayServer(() => errorAnswer(429, body));
    const gemini = fromLanguageModel(
      createGoogleGenerativeAI({ apiKey: 'test', baseURL: `${server.url}/v1beta` })(
        'gemini-3-pro-preview',
      ),
    );
    const failure = await gemini
      .generate({ messages: question, tools: [] })
      .catch((error: unknown) => error);
    expect(ProviderError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({
      code: 'api_error',
      provider: 'google.generative-ai',
      status: 429,
      isRetryable: true,
      providerMessage: 'You exceeded your current quota, please check your plan.',
      providerCode: 'RESOURCE_EXHAUSTED',
    });
  });

  it('401 is authentication; a refused connection is connection_error', async () => {
    server = await startReplayServer(() =>
      errorAnswer(401, {
        type: 'error',
        error: { type: 'authentication_error', message: 'invalid x-api-key' },
      }),
    );
    const failure = await fromLanguageModel(anthropicModel(server.url))
      .generate({ messages: question, tools: [] })
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({
      code: 'authentication',
      status: 401,
      isRetryable: false,
      providerCode: 'authentication_error',
    });
    const url = server.url;
    await server.close();
    server = undefined;
    const refused = await fromLanguageModel(anthropicModel(url))
      .generate({ messages: question, tools: [] })
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'connection_error', isRetryable: true });
  });

  it("an error event in the stream is the API's error, retryable when the API is overloaded", async () => {
    const seed = anthropicSeedRound();
    // Anthropic's documented mid-stream error event, after the recorded thinking block.
    const thinkingStop = seed.events.findIndex((event) => event.type === 'content_block_stop');
    const overloaded = {
      type: 'error',
      error: { type: 'overloaded_error', message: 'Overloaded' },
    };
    server = await startReplayServer(() => ({
      headers: sse,
      chunks: anthropicWire([...seed.events.slice(0, thinkingStop + 1), overloaded]),
    }));
    const { events, error } = await collect(
      fromLanguageModel(anthropicModel(server.url)).stream({
        messages: question,
        tools: [subtract],
      }),
    );
    expect(events.some((event) => event.type === 'reasoning-delta')).toBe(true);
    expect(events.some((event) => event.type === 'tool-call-ready')).toBe(false);
    expect(error).toMatchObject({
      code: 'api_error',
      isRetryable: true,
      providerMessage: 'Overloaded',
      providerCode: 'overloaded_error',
    });
  });

  it("a recorded Responses stream that fails (insufficient_quota) is the API's error", async () => {
    const failed = recordedChunks('openai-responses', 'openai-error.1.chunks.txt');
    server = await startRecordedReplay({ wire: responsesWire, headers: sse }, [{ events: failed }]);
    const openai = providerReplay('@ai-sdk/openai (Responses)').provider(server.url);
    const { events, error } = await collect(openai.stream({ messages: question, tools: [] }));
    expect(events.some((event) => event.type === 'finish')).toBe(false);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'api_error',
      isRetryable: false,
      providerCode: 'insufficient_quota',
    });
    expect((error as ProviderError).providerMessage).toMatch(/^You exceeded your current quota/);
  });

  it('a stream that breaks off mid-call: the complete calls were ready, the broken one never is', async () => {
    const seed = anthropicSeedRound();
    // Cut inside the third tool_use block: two calls complete, the third begun.
    const thirdStart = seed.events.findIndex(
      (event) => event.type === 'content_block_start' && event.index === 3,
    );
    server = await startReplayServer(() => ({
      headers: sse,
      chunks: anthropicWire(seed.events.slice(0, thirdStart + 3)),
    }));
    const { events, error } = await collect(
      fromLanguageModel(anthropicModel(server.url)).stream({
        messages: question,
        tools: [subtract],
      }),
    );
    const ready = events.flatMap((event) =>
      event.type === 'tool-call-ready' ? [event.toolCall.id] : [],
    );
    expect(ready).toEqual(seed.callIds.slice(0, 2));
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'stream_interrupted', isRetryable: false });
    expect((error as Error).message).toContain(`${seed.callIds[2]} (calculator_divide)`);
  });

  it('a cancelled request is aborted', async () => {
    const seed = anthropicSeedRound();
    let release: () => void = () => {};
    const never = new Promise<void>((resolve) => {
      release = resolve;
    });
    server = await startReplayServer(() => ({
      headers: sse,
      chunks: anthropicWire(seed.events),
      hold: { before: 5, until: never },
    }));
    const controller = new AbortController();
    const stream = fromLanguageModel(anthropicModel(server.url)).stream({
      messages: question,
      tools: [subtract],
      signal: controller.signal,
    });
    const seen: ProviderEvent[] = [];
    let error: unknown;
    try {
      for await (const event of stream) {
        seen.push(event);
        if (event.type === 'reasoning-delta') controller.abort();
      }
    } catch (caught) {
      error = caught;
    }
    release();
    expect(seen.some((event) => event.type === 'reasoning-delta')).toBe(true);
    expect(error).toMatchObject({ code: 'aborted' });
  });
});

describe('parts of another model', () => {
  it("a turn made by one model is sent to another without the first one's parts", async () => {
    const seed = anthropicSeedRound();
    server = await startRecordedReplay({ wire: anthropicWire, headers: sse }, [
      { events: seed.events },
    ]);
    const claude = fromLanguageModel(anthropicModel(server.url));
    const turn = await claude.generate({ messages: question, tools: [subtract] });
    await server.close();
    const google = googleRecording('google-reasoning-gemini3.chunks.txt');
    server = await startRecordedReplay({ wire: googleWire, headers: sse }, [{ events: google }]);
    const gemini = fromLanguageModel(
      createGoogleGenerativeAI({ apiKey: 'test', baseURL: `${server.url}/v1beta` })(
        'gemini-3-pro-preview',
      ),
    );
    const answers: Message[] = (turn.message.tool_calls ?? []).map((call) => ({
      role: 'tool',
      tool_call_id: call.id,
      name: call.name,
      content: '1',
    }));
    await gemini.generate({ messages: [...question, turn.message, ...answers], tools: [subtract] });
    const model = ((server.requests[0]?.body?.contents as Json[]) ?? []).find(
      (content) => content.role === 'model',
    );
    const parts = (model?.parts as Json[]) ?? [];
    // Claude's thinking and signatures are not Gemini's: only the six calls go, each with
    // the dummy signature @ai-sdk/google puts on unsigned Gemini 3 calls.
    expect(parts.map((part) => Object.keys(part).sort())).toEqual(
      Array(6).fill(['functionCall', 'thoughtSignature']),
    );
    expect(new Set(parts.map((part) => part.thoughtSignature))).toEqual(
      new Set(['skip_thought_signature_validator']),
    );
  });
});
