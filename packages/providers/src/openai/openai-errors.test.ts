import type { Message, ProviderEvent } from '@mtpx/protocol';
import { describe, expect, it } from 'vitest';
import { openAIUnderTest } from '../__fixtures__/adapter-under-test';
import { calculatorTools } from '../__fixtures__/fixtures';
import { ProviderError } from '../provider-error';

const { server, sse, json, providerFor } = openAIUnderTest();

const ask: Message[] = [{ role: 'user', content: 'What is 15 + (4 × (18 − 6)) / 3?' }];

describe('createOpenAIProvider errors and retries', () => {
  it('lets the SDK retry a 429 (honouring retry-after) and then succeeds', async () => {
    const provider = await providerFor(
      [
        json('rate-limited', 429, { 'retry-after': '0', 'x-request-id': 'req_429' }),
        json('parallel-calls'),
      ],
      2,
    );
    const turn = await provider.generate({ messages: ask, tools: calculatorTools });
    expect(turn.message.tool_calls).toHaveLength(2);
    expect(server?.requests).toHaveLength(2);
    expect(server?.requests[1]?.headers['x-stainless-retry-count']).toBe('1');
  });

  it('throws a typed, retryable error after the SDK has spent its retries on 500s, and retries no more', async () => {
    const failure = json('server-error', 500, { 'retry-after': '0', 'x-request-id': 'req_500' });
    const provider = await providerFor([failure, failure, failure, failure, failure], 2);
    const error = await provider
      .generate({ messages: ask, tools: calculatorTools })
      .catch((caught) => caught);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'api_error',
      provider: 'openai',
      status: 500,
      isRetryable: true,
      requestId: 'req_500',
      providerMessage: 'The server had an error while processing your request. Sorry about that!',
    });
    expect(error.message).toBe(
      'openai: 500 The server had an error while processing your request. Sorry about that!',
    );
    // One request and exactly maxRetries retries: MTPX adds none of its own.
    expect(server?.requests).toHaveLength(3);
  });

  it('does not retry a 400 and keeps the provider message', async () => {
    const body = {
      error: {
        message: "Invalid 'tools[0].function.name'",
        type: 'invalid_request_error',
        param: 'tools[0].function.name',
        code: 'invalid_value',
      },
    };
    const provider = await providerFor([{ type: 'json', status: 400, body }], 2);
    const error = await provider
      .stream({ messages: ask, tools: calculatorTools })
      [Symbol.asyncIterator]()
      .next()
      .catch((caught) => caught);
    expect(error).toMatchObject({
      code: 'api_error',
      status: 400,
      isRetryable: false,
      providerCode: 'invalid_value',
    });
    expect(server?.requests).toHaveLength(1);
  });

  it('turns a cancelled request into an aborted error', async () => {
    const provider = await providerFor([{ ...json('parallel-calls'), delayMs: 60_000 }]);
    const controller = new AbortController();
    const pending = provider.generate({
      messages: ask,
      tools: calculatorTools,
      signal: controller.signal,
    });
    controller.abort();
    const error = await pending.catch((caught) => caught);
    expect(error).toMatchObject({ code: 'aborted', isRetryable: false });
  });

  it('reports a cancelled stream as aborted, not as a finished turn', async () => {
    const provider = await providerFor([sse('seed-chain')]);
    const controller = new AbortController();
    const events: ProviderEvent[] = [];
    const error = await (async () => {
      for await (const event of provider.stream({
        messages: ask,
        tools: calculatorTools,
        signal: controller.signal,
      })) {
        events.push(event);
        if (event.type === 'tool-call-ready') controller.abort();
      }
    })().catch((caught) => caught);
    expect(error).toMatchObject({ code: 'aborted' });
    expect(events.some((event) => event.type === 'finish')).toBe(false);
  });
});
