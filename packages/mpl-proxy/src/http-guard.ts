import { isUtf8 } from 'node:buffer';
import type { IncomingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';
import {
  clientErrorRefusal,
  createRequestGuard,
  parseTarget,
  REFUSAL_REASON,
  type RequestRefusal,
} from '@mtpx/http-guard';
import { InvalidRequestError, type MplError, PolicyDeniedError } from '@mtpx/mpl';

/** What the proxy's guard decided: the routed path and query, or the MPL error to answer. */
export type GuardedTarget =
  | { ok: true; path: string; query: URLSearchParams }
  | { ok: false; status: number; error: MplError };

/** The request facts the proxy's guard reads. */
export interface GuardedExchange {
  method: string;
  target: string | undefined;
  headers: IncomingHttpHeaders;
}

/** Where the proxy listens and whom it answers (its `ProxyOptions`). */
export interface ProxyGuardOptions {
  host: string;
  allowedHosts?: readonly string[] | undefined;
  allowedOrigins?: readonly string[] | undefined;
}

const optionHints: Partial<Record<RequestRefusal['kind'], string>> = {
  host_not_allowed: ' (see --allowed-hosts)',
  origin_not_allowed: ' (see --allowed-origins)',
};

/** A shared-guard refusal as the MPL error the proxy answers with (same status). */
export function mplRefusal(refusal: RequestRefusal): { status: number; error: MplError } {
  const message = `${refusal.message.replace(/\.$/, '')}${optionHints[refusal.kind] ?? ''}`;
  const error =
    refusal.kind === 'host_not_allowed' || refusal.kind === 'origin_not_allowed'
      ? new PolicyDeniedError({ message })
      : new InvalidRequestError({ message });
  return { status: refusal.status, error };
}

/**
 * The proxy's request guard (`@mtpx/http-guard`): the target must parse, `Host` and
 * `Origin` must be allowed, and a POST body must be JSON in UTF-8. Body size is bounded
 * while the body is read.
 */
export function createProxyGuard(
  options: ProxyGuardOptions,
): (exchange: GuardedExchange) => GuardedTarget {
  const guard = createRequestGuard({
    boundHost: options.host,
    allowedHosts: options.allowedHosts,
    allowedOrigins: options.allowedOrigins,
    jsonBodyMethods: ['POST'],
  });
  return (exchange) => {
    const target = parseTarget(exchange.target);
    if (!target.ok) return { ok: false, ...mplRefusal(target.refusal) };
    const refusal = guard(exchange);
    return refusal === undefined ? target : { ok: false, ...mplRefusal(refusal) };
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

/**
 * Answers a request Node's parser refused (malformed, header overflow, timeout) with an
 * MPL error body and closes the connection: never a silent hang, never a 500.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  const refusal = clientErrorRefusal(error.code);
  if (refusal === undefined) socket.destroy();
  else refuseConnection(socket, refusal.status, error.code);
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
    `HTTP/1.1 ${status} ${REFUSAL_REASON[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
