import type { IncomingMessage } from 'node:http';
import { InvalidRequestError, type MplError, PayloadTooLargeError } from '@mtpx/mpl';
import { decodeUtf8 } from '../http-guard';

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
      resolve(bodyTooLarge(received, limit));
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
    const onEnd = () =>
      resolve(bodyText(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size)));
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('error', () => resolve({ ok: true, text: '' }));
  });
}

/** The body of a request whose bytes are all read: its text, or why it has none. */
export function bodyText(bytes: Uint8Array): BodyResult {
  const text = decodeUtf8(bytes);
  if (text !== undefined) return { ok: true, text };
  return {
    ok: false,
    error: new InvalidRequestError({
      message: 'The request body is not valid UTF-8: what is recorded must be what was sent',
      details: [{ path: '', message: 'invalid UTF-8' }],
    }),
  };
}

/** The refusal of a body over `limit` bytes (`received` says how large it is). */
export function bodyTooLarge(received: string, limit: number): BodyResult {
  return {
    ok: false,
    error: new PayloadTooLargeError({
      message: `The request body is ${received}, above the limit of ${limit} bytes (--max-body).`,
      details: [{ path: '', message: `body larger than ${limit} bytes` }],
    }),
  };
}

function discard(request: IncomingMessage): void {
  let discarded = 0;
  request.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > maxDiscardedBytes) request.socket.destroy();
  });
  request.resume();
}
