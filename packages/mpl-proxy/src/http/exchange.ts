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

/**
 * The {@link Exchange} of a request `node:http` parsed.
 *
 * A class, not an object literal: a getter in a literal made per request costs V8 an
 * accessor pair allocated in old space, which keeps the request's young objects alive
 * through every scavenge until a full collection (~9 KB promoted per request, and
 * scavenges 10–30× longer, measured on `/health`).
 */
export class NodeExchange implements Exchange {
  readonly method: string;
  readonly target: string;
  readonly headers: IncomingHttpHeaders;
  readonly node: { request: IncomingMessage; response: ServerResponse };

  constructor(request: IncomingMessage, response: ServerResponse) {
    this.method = request.method ?? 'GET';
    this.target = request.url ?? '/';
    this.headers = request.headers;
    this.node = { request, response };
  }

  body(limit: number): Promise<BodyResult> {
    return readBody(this.node.request, limit);
  }

  send(status: number, text: string, headers: AnswerHeaders): void {
    // A flat [name, value, …] list: node:http writes it as it is (no per-header setHeader).
    const fields: string[] = ['content-length', String(Buffer.byteLength(text))];
    for (const name in headers) fields.push(name, headers[name] as string);
    const { response } = this.node;
    response.writeHead(status, fields);
    response.end(text);
  }

  get answered(): boolean {
    return this.node.response.headersSent;
  }

  abort(): void {
    this.node.response.destroy();
  }
}
