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
