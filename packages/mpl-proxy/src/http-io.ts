import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  InvalidRequestError,
  type MplError,
  type MplErrorBody,
  PayloadTooLargeError,
} from '@mtpx/mpl';
import { decodeUtf8 } from './http-guard';

/** The most a client may keep sending after a 413 before the connection is cut. */
const maxDiscardedBytes = 64 * 1024 * 1024;

/** The body of a request, or the error that stopped reading it. */
export type BodyResult = { ok: true; text: string } | { ok: false; error: MplError };

/**
 * Reads a request body up to `limit` bytes, as strict UTF-8 (invalid bytes give
 * `InvalidRequestError`, never U+FFFD). A larger body gives `PayloadTooLargeError`
 * at once (from `Content-Length` when it is declared), and the rest of the body is read
 * and thrown away, so the client can finish sending and then read the 413.
 */
export function readBody(request: IncomingMessage, limit: number): Promise<BodyResult> {
  return new Promise((resolve) => {
    const tooLarge = (received: string) => {
      discard(request);
      resolve({
        ok: false,
        error: new PayloadTooLargeError({
          message: `The request body is ${received}, above the limit of ${limit} bytes (--max-body).`,
          details: [{ path: '', message: `body larger than ${limit} bytes` }],
        }),
      });
    };
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      tooLarge(`${declared} bytes`);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        request.off('data', onData);
        request.off('end', onEnd);
        tooLarge(`more than ${limit} bytes`);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      const text = decodeUtf8(
        chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size),
      );
      if (text !== undefined) resolve({ ok: true, text });
      else
        resolve({
          ok: false,
          error: new InvalidRequestError({
            message: 'The request body is not valid UTF-8: what is recorded must be what was sent',
            details: [{ path: '', message: 'invalid UTF-8' }],
          }),
        });
    };
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('error', () => resolve({ ok: true, text: '' }));
  });
}

function discard(request: IncomingMessage): void {
  let discarded = 0;
  request.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > maxDiscardedBytes) request.socket.destroy();
  });
  request.resume();
}

/** Answers with JSON. */
export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  response.end(text);
}

/** Answers with an error in the reference shape `{ error, message, details }`. */
export function sendError(
  response: ServerResponse,
  status: number,
  error: MplError,
  headers: Record<string, string> = {},
): void {
  const body: MplErrorBody = error.toJSON();
  sendJson(response, status, body, headers);
}
