import { createServer } from 'node:net';
import type { Message } from '@mtpx/protocol';
import { describe, expect, it } from 'vitest';
import { anthropicUnderTest, openAIUnderTest } from './__fixtures__/adapter-under-test';
import { createAnthropicProvider } from './anthropic/anthropic-provider';
import { createOpenAIProvider } from './openai/openai-provider';

const openai = openAIUnderTest();
const anthropic = anthropicUnderTest();
const ask: Message[] = [{ role: 'user', content: 'Hi' }];

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return typeof address === 'object' && address !== null ? address.port : 0;
}

describe('API errors a user can act on', () => {
  it('openai: 401 is authentication, 404 for a model is not_found', async () => {
    const provider = await openai.providerFor([
      {
        type: 'json',
        status: 401,
        body: {
          error: {
            message: 'Incorrect API key provided: sk-test.',
            type: 'invalid_request_error',
            param: null,
            code: 'invalid_api_key',
          },
        },
      },
      {
        type: 'json',
        status: 404,
        body: {
          error: {
            message: 'The model `gpt-9` does not exist or you do not have access to it.',
            type: 'invalid_request_error',
            param: null,
            code: 'model_not_found',
          },
        },
      },
    ]);
    const unauthorised = await provider.generate({ messages: ask, tools: [] }).catch((e) => e);
    expect(unauthorised).toMatchObject({ code: 'authentication', status: 401, isRetryable: false });
    const missing = await provider.generate({ messages: ask, tools: [] }).catch((e) => e);
    expect(missing).toMatchObject({
      code: 'not_found',
      status: 404,
      providerCode: 'model_not_found',
    });
  });

  it('anthropic: 403 is authentication, 404 is not_found', async () => {
    const provider = await anthropic.providerFor([
      {
        type: 'json',
        status: 403,
        body: {
          type: 'error',
          error: {
            type: 'permission_error',
            message: 'Your API key does not have permission to use the specified resource.',
          },
        },
      },
      {
        type: 'json',
        status: 404,
        body: { type: 'error', error: { type: 'not_found_error', message: 'model: claude-9' } },
      },
    ]);
    expect(await provider.generate({ messages: ask, tools: [] }).catch((e) => e)).toMatchObject({
      code: 'authentication',
      status: 403,
    });
    expect(await provider.generate({ messages: ask, tools: [] }).catch((e) => e)).toMatchObject({
      code: 'not_found',
      providerMessage: 'model: claude-9',
    });
  });

  it('a connection failure names the base URL it tried, streamed or whole', async () => {
    const port = await closedPort();
    const baseURL = `http://127.0.0.1:${port}`;
    const providers = [
      createOpenAIProvider({ model: 'm', apiKey: 'k', baseURL: `${baseURL}/v1`, maxRetries: 0 }),
      createAnthropicProvider({ model: 'm', apiKey: 'k', baseURL, maxRetries: 0 }),
    ];
    for (const provider of providers) {
      const whole = await provider.generate({ messages: ask, tools: [] }).catch((e) => e);
      const url = provider.name === 'openai' ? `${baseURL}/v1` : baseURL;
      expect(whole).toMatchObject({ code: 'connection_error', baseURL: url });
      expect(whole.message).toBe(`${provider.name}: could not reach ${url} (ECONNREFUSED).`);
      const streamed = await (async () => {
        for await (const _event of provider.stream({ messages: ask, tools: [] })) {
          // never reached: the request fails
        }
      })().catch((e) => e);
      expect(streamed).toMatchObject({ code: 'connection_error', baseURL: url });
    }
  });
});
