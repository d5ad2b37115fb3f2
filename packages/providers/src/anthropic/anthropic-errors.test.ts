import type { Message } from '@mtpx/protocol';
import { describe, expect, it } from 'vitest';
import { anthropicUnderTest } from '../__fixtures__/adapter-under-test';
import { collect } from '../__fixtures__/collect';
import { calculatorTools } from '../__fixtures__/fixtures';
import { createAnthropicProvider } from './anthropic-provider';

const { server, sse, json, providerFor } = anthropicUnderTest();

const ask: Message[] = [
  { role: 'system', content: 'You are a careful calculator.' },
  { role: 'user', content: 'What is 15 + (4 × (18 − 6)) / 3?' },
];

describe('createAnthropicProvider errors and retries', () => {
  it('lets the SDK retry a 529 overloaded answer and then succeeds', async () => {
    const provider = await providerFor(
      [json('overloaded', 529, { 'retry-after-ms': '1' }), sse('seed-chain')],
      2,
    );
    const { events, error } = await collect(
      provider.stream({ messages: ask, tools: calculatorTools }),
    );
    expect(error).toBeUndefined();
    expect(events.at(-1)?.type).toBe('finish');
    expect(server?.requests).toHaveLength(2);
  });

  it('throws a typed error with the API message once retries are spent', async () => {
    const overloaded = json('overloaded', 529, { 'retry-after-ms': '1', 'request-id': 'req_529' });
    const provider = await providerFor([overloaded, overloaded, overloaded], 2);
    const error = await provider
      .generate({ messages: ask, tools: calculatorTools })
      .catch((caught) => caught);
    expect(error).toMatchObject({
      code: 'api_error',
      provider: 'anthropic',
      status: 529,
      isRetryable: true,
      providerMessage: 'Overloaded',
      providerCode: 'overloaded_error',
      requestId: 'req_529',
    });
    expect(server?.requests).toHaveLength(3);
  });

  it('does not retry a 400 and reports the API message', async () => {
    const provider = await providerFor([json('invalid-request', 400)], 2);
    const error = await provider
      .generate({ messages: ask, tools: calculatorTools })
      .catch((caught) => caught);
    expect(error).toMatchObject({
      code: 'api_error',
      status: 400,
      isRetryable: false,
      providerCode: 'invalid_request_error',
    });
    expect(error.message).toBe(
      'anthropic: 400 messages.0.content.0.tool_result: tool_use_id not found',
    );
    expect(server?.requests).toHaveLength(1);
  });

  it('needs an API key, and names the variable to set', () => {
    expect(() => createAnthropicProvider({ model: 'claude-sonnet-4-6', env: {} })).toThrowError(
      expect.objectContaining({
        code: 'missing_api_key',
        apiKeyVariable: 'ANTHROPIC_API_KEY',
        message:
          'Anthropic needs an API key: set the ANTHROPIC_API_KEY environment variable (or pass apiKey).',
      }),
    );
  });

  it('reads the key and base URL from the environment', async () => {
    await server.start([json('final-answer')]);
    const provider = createAnthropicProvider({
      model: 'claude-sonnet-4-6',
      env: { ANTHROPIC_API_KEY: 'sk-ant-env', ANTHROPIC_BASE_URL: server.url },
    });
    await provider.generate({ messages: ask, tools: [] });
    expect(server.requests[0]?.headers.authorization).toBe('Bearer sk-ant-env');
  });
});
