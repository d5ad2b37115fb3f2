import type { Provider } from '@mtpx/protocol';
import { ProviderError } from '@mtpx/providers';
import { describe, expect, it } from 'vitest';
import { namingBaseUrl, withBaseUrl } from './base-url-errors';

const unreachable = new ProviderError({
  code: 'connection_error',
  provider: 'anthropic',
  message: 'anthropic: could not reach the API: Connection error.',
});

function failing(error: unknown): Provider {
  return {
    name: 'anthropic',
    model: 'm',
    generate: () => Promise.reject(error),
    stream: () => ({
      [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(error) }),
    }),
  };
}

describe('withBaseUrl', () => {
  it('names the base URL in a connection failure that does not', () => {
    const named = withBaseUrl(unreachable, 'http://127.0.0.1:9');
    expect(ProviderError.isInstance(named)).toBe(true);
    expect((named as ProviderError).message).toBe(
      'anthropic: could not reach the API: Connection error. (base URL http://127.0.0.1:9)',
    );
    expect((named as ProviderError).code).toBe('connection_error');
  });

  it('leaves a message that names the URL already, and other failures, alone', () => {
    const already = new ProviderError({
      code: 'connection_error',
      provider: 'openai',
      message: 'openai: could not reach http://127.0.0.1:9: ECONNREFUSED',
    });
    expect(withBaseUrl(already, 'http://127.0.0.1:9')).toBe(already);
    const denied = new ProviderError({
      code: 'api_error',
      provider: 'openai',
      message: '401',
      status: 401,
    });
    expect(withBaseUrl(denied, 'http://127.0.0.1:9')).toBe(denied);
  });
});

describe('namingBaseUrl', () => {
  it('names the URL in the errors of generate and of stream', async () => {
    const provider = namingBaseUrl(failing(unreachable), 'http://127.0.0.1:9');
    await expect(provider.generate({ messages: [], tools: [] })).rejects.toThrow(
      /\(base URL http:\/\/127\.0\.0\.1:9\)$/,
    );
    const iterate = async () => {
      for await (const _event of provider.stream({ messages: [], tools: [] })) break;
    };
    await expect(iterate()).rejects.toThrow(/\(base URL http:\/\/127\.0\.0\.1:9\)$/);
    expect(provider.name).toBe('anthropic');
  });
});
