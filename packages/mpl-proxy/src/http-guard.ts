import { isUtf8 } from 'node:buffer';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
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
  // The guard reads only the method, Host, Origin and Content-Type: the combinations it let
  // through are remembered, so a client's next request costs one lookup.
  const passed = new Set<string>();
  return (exchange) => {
    const target = parseTarget(exchange.target);
    if (!target.ok) return { ok: false, ...mplRefusal(target.refusal) };
    const key = guardKey(exchange);
    if (key !== undefined && passed.has(key)) return target;
    const refusal = guard(exchange);
    if (refusal !== undefined) return { ok: false, ...mplRefusal(refusal) };
    if (key !== undefined) {
      if (passed.size >= maxRememberedPasses) passed.clear();
      passed.add(key);
    }
    return target;
  };
}

/** How many passing method / Host / Origin / Content-Type combinations are remembered. */
const maxRememberedPasses = 1_000;

/**
 * The facts the guard decides on, as one string (NUL, which no parsed header value holds,
 * marks an absent header and separates them), or `undefined` when a header came as a list.
 */
function guardKey({ method, headers }: GuardedExchange): string | undefined {
  const host = headers.host;
  const origin = headers.origin;
  const contentType = headers['content-type'];
  if (typeof host !== 'string') return undefined;
  if (origin !== undefined && typeof origin !== 'string') return undefined;
  if (contentType !== undefined && typeof contentType !== 'string') return undefined;
  return `${method}\u0000${host}\u0000${origin ?? '\u0000'}\u0000${contentType ?? '\u0000'}`;
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
 * The answers each connection may still owe, with their requests. Written answers are
 * dropped as the next one is added, so no listener is put on every answer.
 */
const answersInFlight = new WeakMap<Socket, Map<ServerResponse, IncomingMessage>>();

/** True once `response` is written, or can no longer be. */
function settled(response: ServerResponse): boolean {
  return response.writableFinished || response.destroyed;
}

/**
 * Counts `response` as owed on `socket` until it is written (or the connection closes), so
 * a refusal of a later pipelined request waits for it ({@link answerClientError}).
 */
export function trackAnswer(
  socket: Socket,
  request: IncomingMessage,
  response: ServerResponse,
): void {
  let owed = answersInFlight.get(socket);
  if (owed === undefined) {
    owed = new Map();
    answersInFlight.set(socket, owed);
  } else if (owed.size > 0) {
    for (const earlier of owed.keys()) if (settled(earlier)) owed.delete(earlier);
  }
  owed.set(response, request);
}

/**
 * Calls `then` once every answer owed for a request read in full is written (or dropped),
 * synchronously from the last one's `finish`: before `node:http`'s own listener, which ends
 * a `Connection: close` answer's connection right then (Node 22 and later parse a request
 * pipelined behind it while the answer is still owed; Node 20 only after). Returns false,
 * without calling `then`, when nothing is owed.
 */
function afterOwedAnswers(socket: Socket, then: () => void): boolean {
  const owed = answersInFlight.get(socket);
  if (owed === undefined) return false;
  // A request still being read (its body stalled or malformed) is the one refused.
  const pending = [...owed].filter(([response, request]) => request.complete && !settled(response));
  if (pending.length === 0) return false;
  let left = pending.length;
  for (const [response] of pending) {
    let counted = false;
    const done = () => {
      if (counted) return;
      counted = true;
      left -= 1;
      if (left === 0) then();
    };
    response.prependOnceListener('finish', done);
    response.prependOnceListener('close', done);
  }
  return true;
}

/**
 * Answers a request Node's parser refused (malformed, header overflow, timeout) with an
 * MPL error body and closes the connection: never a silent hang, never a 500. The answers
 * to the requests pipelined before it are written first, then the refusal.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  const refusal = clientErrorRefusal(error.code);
  if (refusal === undefined) {
    socket.destroy();
    return;
  }
  const refuse = () => refuseConnection(socket, refusal.status, error.code);
  // Nothing more is read from this connection; the refusal follows the owed answers.
  if (afterOwedAnswers(socket, refuse)) socket.pause();
  else refuse();
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
