import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { MplError, MplErrorBody } from '@mtpx/mpl';
import { type BodyResult, readBody } from './http-io';

/** Response headers a route sets (lower-case names; `content-length` is added for it). */
export type AnswerHeaders = Record<string, string>;

/**
 * One request and its answer, whichever HTTP layer read it: the proxy's own front layer
 * (`http-front.ts`, the common well-formed requests) or `node:http` (everything else). The
 * routes see only this, so every request takes the same path whatever parsed it.
 */
export interface Exchange {
  /** `GET`, `POST`, … as sent. */
  readonly method: string;
  /** The request target as sent (`/provenance?planId=…`). */
  readonly target: string;
  /** Request headers, names lower-cased, as `node:http` presents them. */
  readonly headers: IncomingHttpHeaders;
  /**
   * The body as strict UTF-8 text, at most `limit` bytes (`PayloadTooLargeError` past it,
   * `InvalidRequestError` for bytes that are not UTF-8). Read once.
   */
  body(limit: number): Promise<BodyResult>;
  /** Sends the whole answer: `text` with a `Content-Length`, and `headers`. */
  send(status: number, text: string, headers: AnswerHeaders): void;
  /** True once the answer has started. */
  readonly answered: boolean;
  /** Drops the connection: for a failure after the answer started. */
  abort(): void;
  /**
   * Node's request and response, for the routes that stream (`GET /messages`); only
   * `node:http` exchanges have them.
   */
  readonly node?: { request: IncomingMessage; response: ServerResponse };
}

const jsonType = 'application/json; charset=utf-8';

/** Answers with `body` as JSON. */
export function sendJson(
  exchange: Exchange,
  status: number,
  body: unknown,
  headers: AnswerHeaders = {},
): void {
  // Copied by hand: spreading a small object is slow in V8, and this runs on every answer.
  const all: AnswerHeaders = { 'content-type': jsonType };
  for (const name in headers) all[name] = headers[name] as string;
  exchange.send(status, JSON.stringify(body), all);
}

/** Answers with an error in the reference shape `{ error, message, details }`. */
export function sendError(
  exchange: Exchange,
  status: number,
  error: MplError,
  headers: AnswerHeaders = {},
): void {
  const body: MplErrorBody = error.toJSON();
  sendJson(exchange, status, body, headers);
}

/** The {@link Exchange} of a request `node:http` parsed. */
export function nodeExchange(request: IncomingMessage, response: ServerResponse): Exchange {
  return {
    method: request.method ?? 'GET',
    target: request.url ?? '/',
    headers: request.headers,
    body: (limit) => readBody(request, limit),
    send(status, text, headers) {
      // A flat [name, value, …] list: node:http writes it as it is (no per-header setHeader).
      const fields: string[] = ['content-length', String(Buffer.byteLength(text))];
      for (const name in headers) fields.push(name, headers[name] as string);
      response.writeHead(status, fields);
      response.end(text);
    },
    get answered() {
      return response.headersSent;
    },
    abort: () => response.destroy(),
    node: { request, response },
  };
}
