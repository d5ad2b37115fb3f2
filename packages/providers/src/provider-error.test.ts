import { MtpxError } from '@mtpx/protocol';
import { describe, expect, it } from 'vitest';
import { isRetryableStatus, ProviderError } from './provider-error';
import { toProviderError } from './sdk-errors';

describe('ProviderError', () => {
  it('is an MtpxError recognised across copies by its marker', () => {
    const error = new ProviderError({
      code: 'api_error',
      provider: 'groq',
      status: 429,
      message: 'groq: 429 slow down',
    });
    expect(MtpxError.isInstance(error)).toBe(true);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(ProviderError.isInstance(new MtpxError({ code: 'x', message: 'x' }))).toBe(false);
    expect(ProviderError.isInstance({ [Symbol.for('mtpx.error.ProviderError')]: true })).toBe(true);
    expect(error.isRetryable).toBe(true);
  });

  it('is retryable for 408, 409, 429 and 5xx only', () => {
    expect(
      [400, 401, 403, 404, 408, 409, 422, 429, 500, 503, 529].filter(isRetryableStatus),
    ).toEqual([408, 409, 429, 500, 503, 529]);
    expect(isRetryableStatus(undefined)).toBe(false);
  });
});

describe('toProviderError', () => {
  const context = { provider: 'openai', phase: 'request' as const };

  it('reads errors by class name and shape, not instanceof', () => {
    class APIConnectionTimeoutError extends Error {}
    expect(toProviderError(new APIConnectionTimeoutError('timed out'), context)).toMatchObject({
      code: 'timeout',
      isRetryable: true,
    });
    class APIConnectionError extends Error {}
    expect(toProviderError(new APIConnectionError('Connection error.'), context)).toMatchObject({
      code: 'connection_error',
      isRetryable: true,
    });
  });

  it('makes any failure after the caller aborted a cancellation', () => {
    const controller = new AbortController();
    controller.abort();
    expect(
      toProviderError(new Error('whatever'), { ...context, signal: controller.signal }).code,
    ).toBe('aborted');
  });

  it('keeps a ProviderError as it is', () => {
    const error = new ProviderError({ code: 'invalid_stream', provider: 'openai', message: 'm' });
    expect(toProviderError(error, context)).toBe(error);
  });

  it('names a broken stream and unparsable data', () => {
    expect(toProviderError(new TypeError('terminated'), { ...context, phase: 'stream' }).code).toBe(
      'stream_interrupted',
    );
    expect(
      toProviderError(new SyntaxError('Unexpected token'), { ...context, phase: 'stream' }).code,
    ).toBe('invalid_stream');
  });
});
