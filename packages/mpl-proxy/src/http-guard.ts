import { isUtf8 } from 'node:buffer';
import type { IncomingHttpHeaders } from 'node:http';
import { isIP, type Socket } from 'node:net';
import { InvalidRequestError, type MplError, PolicyDeniedError } from '@mtpx/mpl';

/** A refusal: the status to answer with and the typed error to send. */
export interface Refusal {
  status: number;
  error: MplError;
}

/** The loopback names a proxy bound to loopback answers to by default. */
export const LOOPBACK_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/** True for an address of the loopback interface (`127.0.0.0/8`, `::1`, `localhost`). */
export function isLoopbackAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  if (bare === 'localhost' || bare === '::1') return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  return bare.startsWith('::ffff:127.');
}

/**
 * The `Host` names to accept: the configured ones, else the loopback names when bound to
 * loopback; `undefined` (accept any) when bound elsewhere with nothing configured.
 */
export function hostAllowList(
  boundHost: string,
  configured: readonly string[] | undefined,
): ReadonlySet<string> | undefined {
  if (configured && configured.length > 0)
    return new Set(configured.map((name) => name.toLowerCase()));
  return isLoopbackAddress(boundHost) ? new Set(LOOPBACK_HOSTS) : undefined;
}

/** The host name of a `Host` header, without its port (`[::1]:9443` → `[::1]`). */
export function hostName(header: string): string {
  const lower = header.toLowerCase();
  if (lower.startsWith('[')) {
    const end = lower.indexOf(']');
    return end === -1 ? lower : lower.slice(0, end + 1);
  }
  const colon = lower.indexOf(':');
  return colon === -1 ? lower : lower.slice(0, colon);
}

/** Refuses a request whose `Host` is missing or not allowed (DNS rebinding). */
export function checkHost(
  headers: IncomingHttpHeaders,
  allowed: ReadonlySet<string> | undefined,
): Refusal | undefined {
  const host = headers.host;
  if (!host)
    return {
      status: 400,
      error: new InvalidRequestError({ message: 'The request has no Host header' }),
    };
  if (!allowed || allowed.has(hostName(host))) return undefined;
  return {
    status: 421,
    error: new PolicyDeniedError({
      message: `This proxy does not answer to Host ${host.slice(0, 200)} (allowed: ${[...allowed].join(', ')}; see --allowed-hosts)`,
    }),
  };
}

/**
 * Refuses a cross-site request: a request with an `Origin` is let through only when that
 * origin is the proxy's own (`http://<Host>`) or allow-listed. Requests without `Origin`
 * (curl, SDKs, agents) are not browsers' cross-site requests and pass.
 */
export function checkOrigin(
  headers: IncomingHttpHeaders,
  allowedOrigins: ReadonlySet<string>,
): Refusal | undefined {
  const origin = headers.origin;
  if (origin === undefined) return undefined;
  const lower = origin.toLowerCase();
  if (allowedOrigins.has('*') || allowedOrigins.has(lower)) return undefined;
  const host = headers.host?.toLowerCase();
  if (host && (lower === `http://${host}` || lower === `https://${host}`)) return undefined;
  return {
    status: 403,
    error: new PolicyDeniedError({
      message: `Cross-site request refused: Origin ${origin.slice(0, 200)} is not allowed (see --allowed-origins)`,
    }),
  };
}

const jsonMediaType = /^application\/(?:[a-z0-9.+-]+\+)?json$/;

/** Refuses a body that is not `application/json` or `*+json` (415), or not UTF-8 (415). */
export function checkContentType(headers: IncomingHttpHeaders): Refusal | undefined {
  const header = headers['content-type'];
  // What nearly every client sends, without splitting it.
  if (header === 'application/json' || header === 'application/json; charset=utf-8')
    return undefined;
  const [type = '', ...parameters] = (header ?? '').split(';');
  const mediaType = type.trim().toLowerCase();
  const charset = parameters
    .map((parameter) => parameter.trim().toLowerCase())
    .find((parameter) => parameter.startsWith('charset='))
    ?.slice('charset='.length)
    .replace(/^"|"$/g, '');
  if (jsonMediaType.test(mediaType) && (charset === undefined || charset === 'utf-8'))
    return undefined;
  return {
    status: 415,
    error: new InvalidRequestError({
      message: `POST bodies must be JSON in UTF-8 (Content-Type: application/json or */*+json), not ${header ? header.slice(0, 100) : 'a body without Content-Type'}`,
    }),
  };
}

/** A request target split into its path and query, or the refusal of a malformed one. */
export type Target = { ok: true; path: string; query: URLSearchParams } | ({ ok: false } & Refusal);

const plainPath = /^\/[A-Za-z0-9._~/-]*$/;
const emptyQuery = new URLSearchParams();

/**
 * Parses the request target (origin form `/path?query`) without ever throwing: anything
 * malformed (an absolute URL that does not parse, `%` escapes that are not UTF-8) is a 400.
 */
export function parseTarget(raw: string | undefined): Target {
  const target = raw ?? '/';
  // The common case (`/call`): a plain path, nothing to decode, no URL object to build.
  if (plainPath.test(target))
    return { ok: true, path: target.replace(/\/+$/, '') || '/', query: emptyQuery };
  let url: URL;
  try {
    url = new URL(target, 'http://mpl.local');
  } catch {
    return malformed(target);
  }
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    return malformed(target);
  }
  if (path.includes('\u0000')) return malformed(target);
  return { ok: true, path: path.replace(/\/+$/, '') || '/', query: url.searchParams };
}

function malformed(target: string): Target {
  return {
    ok: false,
    status: 400,
    error: new InvalidRequestError({
      message: `Malformed request target: ${JSON.stringify(target.slice(0, 200))}`,
    }),
  };
}

/**
 * The body as text, or `undefined` when it is not valid UTF-8 (never replaced with U+FFFD).
 * A byte order mark is kept, as sent.
 */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  if (!isUtf8(bytes)) return undefined;
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}

/** Status line text of the statuses a protocol-level refusal uses. */
const reasons: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  413: 'Payload Too Large',
  431: 'Request Header Fields Too Large',
};

/**
 * Answers a request Node's parser refused (malformed, header overflow, timeout) with an
 * MPL error body and closes the connection: never a silent hang, never a 500.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  const status =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? 431
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? 408
        : error.code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW'
          ? 413
          : 400;
  if (error.code === 'ECONNRESET') socket.destroy();
  else refuseConnection(socket, status, error.code);
}

/**
 * Answers `status` (400, 408, 413 or 431) with an `E-INVALID-REQUEST` body on a raw
 * connection whose request cannot be read, then closes it; `code` names what was wrong.
 * A connection that can no longer be written to is just closed.
 */
export function refuseConnection(socket: Socket, status: number, code?: string): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify({
    error: 'E-INVALID-REQUEST',
    message:
      status === 408
        ? 'The request was not received in time'
        : `The request is not valid HTTP (${code ?? 'parse error'})`,
    details: [],
  });
  socket.end(
    `HTTP/1.1 ${status} ${reasons[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
