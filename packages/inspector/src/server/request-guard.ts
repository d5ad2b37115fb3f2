import type { IncomingMessage } from 'node:http';
import { createRequestGuard, type RequestRefusal } from '@mtpx/http-guard';

/**
 * The Inspector's request guard (`@mtpx/http-guard`), for a server bound to `host`: a
 * `Host` it answers to (bound to loopback: the loopback names, any port), an `Origin`,
 * when the browser sends one, of the same host (a page on another site cannot read the
 * runs), only `GET` and `HEAD`, and no request body. The refusal's `kind` is the error
 * `code` the Inspector answers with.
 */
export function createInspectorGuard(
  host: string,
): (request: IncomingMessage) => RequestRefusal | undefined {
  const guard = createRequestGuard({
    boundHost: host,
    methods: ['GET', 'HEAD'],
    maxBodyBytes: 0,
  });
  return (request) => guard({ method: request.method, headers: request.headers });
}

/** The most of a refused request's body the Inspector reads before answering and closing. */
const maxRefusedBodyBytes = 8 * 1024 * 1024;

/**
 * Reads and drops what is left of a refused request's body (at most 8 MiB), so the refusal
 * is answered once the client has sent it all: closing a connection that still has unread
 * bytes makes the kernel reset it, and the client may lose the answer with it. Resolves at
 * the body's end, past the bound, or when the connection ends.
 */
export function drainRefusedBody(request: IncomingMessage): Promise<void> {
  if (request.complete || request.readableEnded) return Promise.resolve();
  return new Promise((resolve) => {
    let received = 0;
    const done = () => {
      request.off('data', count);
      resolve();
    };
    const count = (chunk: Buffer) => {
      received += chunk.length;
      if (received > maxRefusedBodyBytes) done();
    };
    request.on('data', count);
    request.once('end', done);
    request.once('close', done);
    request.once('error', done);
    request.resume();
  });
}
