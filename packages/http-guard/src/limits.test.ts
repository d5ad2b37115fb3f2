import { describe, expect, it } from 'vitest';
import { checkBodyLength, clientErrorRefusal } from './limits';

describe('checkBodyLength', () => {
  it('refuses a body announced over the limit with 413', () => {
    expect(checkBodyLength({ contentLength: '1000' }, 999)).toMatchObject({
      kind: 'body_too_large',
      status: 413,
    });
    expect(checkBodyLength({ contentLength: '999' }, 999)).toBeUndefined();
    expect(checkBodyLength({ transferEncoding: 'chunked' }, 999)).toBeUndefined();
  });

  it('with a limit of 0, refuses any body, chunked too', () => {
    expect(checkBodyLength({ contentLength: '1' }, 0)).toMatchObject({
      kind: 'body_not_allowed',
      status: 413,
    });
    expect(checkBodyLength({ transferEncoding: 'chunked' }, 0)?.status).toBe(413);
    expect(checkBodyLength({ contentLength: '0' }, 0)).toBeUndefined();
    expect(checkBodyLength({}, 0)).toBeUndefined();
  });
});

describe('clientErrorRefusal', () => {
  it.each([
    ['HPE_HEADER_OVERFLOW', 431, 'headers_too_large'],
    ['ERR_HTTP_REQUEST_TIMEOUT', 408, 'request_timeout'],
    ['HPE_CHUNK_EXTENSIONS_OVERFLOW', 413, 'body_too_large'],
    ['HPE_INVALID_METHOD', 400, 'malformed_request'],
    [undefined, 400, 'malformed_request'],
  ])('%s → %i %s', (code, status, kind) => {
    expect(clientErrorRefusal(code)).toMatchObject({ status, kind });
  });

  it('answers nothing to a reset connection', () => {
    expect(clientErrorRefusal('ECONNRESET')).toBeUndefined();
  });
});
