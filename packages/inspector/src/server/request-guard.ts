import type { IncomingMessage } from 'node:http';

/** Why a request was refused before routing, with the status to answer. */
export interface Refusal {
  status: number;
  code: string;
  message: string;
}

/**
 * The `Host` values a server bound to `host:port` answers: the address it listens on
 * and, for loopback, `localhost` and `127.0.0.1` / `[::1]`. Anything else may be a DNS
 * rebinding attack (a hostile name resolved to 127.0.0.1) and is refused.
 */
export function allowedHosts(host: string, port: number): Set<string> {
  const names = new Set([host.includes(':') ? `[${host}]` : host]);
  if (['127.0.0.1', 'localhost', '::1', '0.0.0.0', '::'].includes(host))
    for (const loopback of ['127.0.0.1', 'localhost', '[::1]']) names.add(loopback);
  return new Set([...names].map((name) => `${name}:${port}`.toLowerCase()));
}

/**
 * Checks a request before it is routed: only `GET` and `HEAD`; a `Host` header the server
 * answers to; an `Origin`, when the browser sends one, that is the server itself (a page
 * on another site cannot read the runs); no request body.
 */
export function checkRequest(
  request: IncomingMessage,
  hosts: ReadonlySet<string>,
): Refusal | undefined {
  const method = request.method ?? 'GET';
  if (method !== 'GET' && method !== 'HEAD')
    return {
      status: 405,
      code: 'method_not_allowed',
      message: `${method} is not allowed: the Inspector only reads.`,
    };
  const host = (request.headers.host ?? '').toLowerCase();
  if (!hosts.has(host))
    return {
      status: 421,
      code: 'host_not_allowed',
      message: `Host ${JSON.stringify(request.headers.host ?? '')} is not this Inspector (expected ${[...hosts].join(' or ')}).`,
    };
  const origin = request.headers.origin;
  if (origin !== undefined && origin !== 'null') {
    let originHost: string;
    try {
      const parsed = new URL(origin);
      originHost = parsed.protocol === 'http:' ? parsed.host.toLowerCase() : '';
    } catch {
      originHost = '';
    }
    if (!hosts.has(originHost))
      return {
        status: 403,
        code: 'origin_not_allowed',
        message: `Requests from ${origin} are not allowed.`,
      };
  } else if (origin === 'null') {
    return {
      status: 403,
      code: 'origin_not_allowed',
      message: 'Requests from an opaque origin are not allowed.',
    };
  }
  const length = Number(request.headers['content-length'] ?? 0);
  if ((Number.isFinite(length) && length > 0) || request.headers['transfer-encoding'] !== undefined)
    return {
      status: 413,
      code: 'body_not_allowed',
      message: 'The Inspector takes no request body.',
    };
  return undefined;
}
