import { type RequestRefusal, refuse } from './refusal';

/** The body headers a size check reads. */
export interface BodyHeaders {
  contentLength?: string | null | undefined;
  transferEncoding?: string | null | undefined;
}

/**
 * Refuses a body that announces more than `maxBytes` (413 `body_too_large`); with
 * `maxBytes` 0, any body at all (413 `body_not_allowed`), chunked ones included. A body
 * without `Content-Length` can only be bounded while it is read: do that too.
 */
export function checkBodyLength(body: BodyHeaders, maxBytes: number): RequestRefusal | undefined {
  const length = Number(body.contentLength ?? 0);
  const chunked = body.transferEncoding !== undefined && body.transferEncoding !== null;
  if (maxBytes === 0) {
    if ((Number.isFinite(length) && length > 0) || chunked)
      return refuse('body_not_allowed', 'This server takes no request body.');
    return undefined;
  }
  if (Number.isFinite(length) && length > maxBytes)
    return refuse('body_too_large', `The request body exceeds ${maxBytes} bytes.`);
  return undefined;
}

/**
 * The refusal for an error Node's HTTP parser raised (`clientError`): header overflow
 * is 431, a request not received in time 408, a chunk extension overflow 413, anything
 * else malformed 400. `undefined` for a connection reset: there is no one to answer.
 */
export function clientErrorRefusal(code: string | undefined): RequestRefusal | undefined {
  switch (code) {
    case 'ECONNRESET':
      return undefined;
    case 'HPE_HEADER_OVERFLOW':
      return refuse('headers_too_large', 'The request headers are too large.');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return refuse('request_timeout', 'The request was not received in time.');
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return refuse('body_too_large', 'The request body is too large.');
    default:
      return refuse(
        'malformed_request',
        `The request is not valid HTTP (${code ?? 'parse error'}).`,
      );
  }
}
