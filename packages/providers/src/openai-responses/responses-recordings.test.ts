import type { ProviderEvent, ProviderTurn, Usage } from '@mtpx/protocol';
import { describe, expect, it } from 'vitest';
import { collect } from '../__fixtures__/collect';
import { modelServerPerTest } from '../__fixtures__/model-server-per-test';
import {
  asSse,
  eventsFromResponse,
  outcomeOf,
  type RecordedOutcome,
  recordedResponse,
  recordedStreams,
  recordingNames,
  splitStreamFetch,
  streamOutcome,
} from '../__fixtures__/responses-recordings';
import { ProviderError } from '../provider-error';
import type { ResponseScript } from '../testing/model-server';
import { createOpenAIResponsesProvider } from './responses-provider';

type Json = Record<string, unknown>;
const server = modelServerPerTest();
const request = { messages: [{ role: 'user' as const, content: 'Go.' }], tools: [] };

const providerAt = (url: string) =>
  createOpenAIResponsesProvider({
    model: 'gpt-5',
    apiKey: 'sk-test',
    baseURL: `${url}/v1`,
    maxRetries: 0,
  });

/** The usage a recording reports, in MTPX's terms, read straight from the recording. */
function expectedUsage(usage: Json | undefined): Usage | undefined {
  if (usage === undefined) return undefined;
  const input = (usage.input_tokens_details ?? {}) as Json;
  const output = (usage.output_tokens_details ?? {}) as Json;
  return {
    inputTokens: usage.input_tokens as number,
    outputTokens: usage.output_tokens as number,
    totalTokens: usage.total_tokens as number,
    ...(typeof input.cached_tokens === 'number'
      ? { cachedInputTokens: input.cached_tokens, cacheReadTokens: input.cached_tokens }
      : {}),
    ...(typeof input.cache_write_tokens === 'number'
      ? { cacheWriteTokens: input.cache_write_tokens }
      : {}),
    ...(typeof output.reasoning_tokens === 'number'
      ? { reasoningTokens: output.reasoning_tokens }
      : {}),
  };
}

/** The turn holds exactly what the recording holds. */
function expectTurn(turn: ProviderTurn, expected: RecordedOutcome) {
  expect(
    (turn.message.tool_calls ?? []).map((call) => ({
      id: call.id,
      name: call.name,
      arguments: call.arguments,
    })),
  ).toEqual(expected.calls);
  expect(turn.message.content ?? '').toBe(expected.text);
  expect(turn.reasoning).toBe(expected.reasoning);
  expect(turn.usage).toEqual(expectedUsage(expected.usage));
  expect(turn.finishReason).toBe(
    expected.status === 'incomplete'
      ? turn.finishReason
      : expected.calls.length > 0
        ? 'tool_calls'
        : 'stop',
  );
}

/**
 * A recording whose text deltas are not the beginning of its done message (hand-edited:
 * "successfully." streamed, "successfully in the container…" done). Its turn holds the
 * done message; its deltas are what they are.
 */
const deltasDisagree = new Set(['openai-shell-container.1.chunks.txt']);

/** The streamed events say the same as the turn. */
function expectEvents(events: readonly ProviderEvent[], expected: RecordedOutcome, name = '') {
  const joined = (type: 'text-delta' | 'reasoning-delta') =>
    events.flatMap((event) => (event.type === type ? [event.delta] : [])).join('');
  if (!deltasDisagree.has(name)) expect(joined('text-delta')).toBe(expected.text);
  expect(joined('reasoning-delta')).toBe(expected.reasoning ?? '');
  expect(
    events.flatMap((event) => (event.type === 'tool-call-ready' ? [event.toolCall.id] : [])),
  ).toEqual(expected.calls.map((call) => call.id));
}

async function streamed(provider: ReturnType<typeof providerAt>) {
  const { events, error } = await collect(provider.stream(request));
  const finish = events.at(-1);
  return { events, error, turn: finish?.type === 'finish' ? finish.turn : undefined };
}

const failed = (expected: RecordedOutcome) => expected.status === 'failed';

function expectFailure(error: unknown, expected: RecordedOutcome) {
  expect(ProviderError.isInstance(error)).toBe(true);
  expect((error as ProviderError).providerCode).toBe(expected.error?.code);
}

const { streams, bodies } = recordingNames();

describe('every recorded Responses stream through the adapter', () => {
  it('reads the recordings named in SOURCES.md', () => {
    expect(streams.length).toBeGreaterThanOrEqual(30);
    expect(bodies.length).toBeGreaterThanOrEqual(25);
  });

  for (const name of streams) {
    recordedStreams(name).forEach((events, position) => {
      const label = `${name}${position === 0 ? '' : ` (response ${position + 1})`}`;
      const expected = streamOutcome(events);

      it(`${label}: streamed, calls, text, reasoning and usage are the recording's`, async () => {
        const { url } = await server.start([{ type: 'sse', events: asSse(events) }]);
        const result = await streamed(providerAt(url));
        if (failed(expected)) return expectFailure(result.error, expected);
        expect(result.error).toBeUndefined();
        expectTurn(result.turn as ProviderTurn, expected);
        expectEvents(result.events, expected, name);
      });

      it(`${label}: streamed and split at random byte boundaries, the same`, async () => {
        for (const seed of [1, 7, 42]) {
          const provider = createOpenAIResponsesProvider({
            model: 'gpt-5',
            apiKey: 'sk-test',
            maxRetries: 0,
            clientOptions: { fetch: splitStreamFetch(events, seed) },
          });
          const result = await streamed(provider);
          if (failed(expected)) {
            expectFailure(result.error, expected);
            continue;
          }
          expect(result.error).toBeUndefined();
          expectTurn(result.turn as ProviderTurn, expected);
          expectEvents(result.events, expected, name);
        }
      });

      if (failed(expected)) return;
      it(`${label}: whole (the response it ends with), the same`, async () => {
        const items = events
          .filter((event) => event.type === 'response.output_item.done')
          .map((event) => event.item);
        const final = events.find((event) =>
          ['response.completed', 'response.incomplete'].includes(String(event.type)),
        )?.response as Json;
        const body = { ...final, output: items.length > 0 ? items : final.output };
        const { url } = await server.start([{ type: 'json', body }]);
        expectTurn(await providerAt(url).generate(request), expected);
      });
    });
  }
});

describe('every recorded Responses body through the adapter', () => {
  for (const name of bodies) {
    const body = recordedResponse(name);
    if ('error' in body && body.object !== 'response') {
      it(`${name}: the API's error, typed, with its code`, async () => {
        const error = body.error as Json;
        const status = error.type === 'insufficient_quota' ? 429 : 400;
        const answer: ResponseScript = {
          type: 'json',
          status,
          body,
          headers: { 'x-should-retry': 'false' },
        };
        const { url } = await server.start([answer]);
        const caught = await providerAt(url)
          .generate(request)
          .catch((thrown: unknown) => thrown);
        expect(ProviderError.isInstance(caught)).toBe(true);
        expect((caught as ProviderError).status).toBe(status);
        expect((caught as ProviderError).providerCode).toBe(error.code ?? error.type);
        expect((caught as ProviderError).providerMessage).toBe(error.message);
      });
      continue;
    }
    const expected = outcomeOf((body.output as Json[]) ?? [], body);
    it(`${name}: whole, calls, text, reasoning and usage are the recording's`, async () => {
      const { url } = await server.start([{ type: 'json', body }]);
      expectTurn(await providerAt(url).generate(request), expected);
    });
    it(`${name}: streamed as the API streams it, whole and split, the same`, async () => {
      const events = eventsFromResponse(body);
      const { url } = await server.start([{ type: 'sse', events: asSse(events) }]);
      const result = await streamed(providerAt(url));
      expect(result.error).toBeUndefined();
      expectTurn(result.turn as ProviderTurn, expected);
      expectEvents(result.events, expected);
      const split = createOpenAIResponsesProvider({
        model: 'gpt-5',
        apiKey: 'sk-test',
        maxRetries: 0,
        clientOptions: { fetch: splitStreamFetch(events, 3) },
      });
      expectTurn((await streamed(split)).turn as ProviderTurn, expected);
    });
  }
});
