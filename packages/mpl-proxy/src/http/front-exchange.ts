import type { IncomingHttpHeaders } from 'node:http';
import { InternalError } from '@mtpx/mpl';
import type { AnswerHeaders, Exchange } from './exchange';
import { fieldValue, type Head, httpDate, statusLine } from './http-head';
import { type BodyResult, bodyText, bodyTooLarge } from './http-io';

/** What a {@link FrontExchange} answers through: its connection of the front layer. */
export interface FrontAnswerer {
  /** True once the connection closes after the answers in flight. */
  readonly closing: boolean;
  /** The `connection: keep-alive` lines ending an answer head that keeps the connection. */
  readonly keepAlive: string;
  /** Writes one answer (head and body); `close` ends the connection after it. */
  answer(head: string, text: string, close: boolean): void;
  /** Drops the connection. */
  destroy(): void;
}

/** A request the front layer read, with its whole body. */
export class FrontExchange implements Exchange {
  readonly method: string;
  readonly target: string;
  readonly headers: IncomingHttpHeaders;
  answered = false;
  readonly #connection: FrontAnswerer;
  readonly #close: boolean;
  #body: Buffer | undefined;

  constructor(connection: FrontAnswerer, head: Head, body: Buffer) {
    this.#connection = connection;
    this.method = head.method;
    this.target = head.target;
    this.headers = head.headers;
    this.#close = head.close;
    this.#body = body;
  }

  body(limit: number): Promise<BodyResult> {
    const bytes = this.#body;
    this.#body = undefined;
    if (bytes === undefined || bytes.length === 0) return Promise.resolve({ ok: true, text: '' });
    if (bytes.length > limit) return Promise.resolve(bodyTooLarge(`${bytes.length} bytes`, limit));
    return Promise.resolve(bodyText(bytes));
  }

  send(status: number, text: string, headers: AnswerHeaders): void {
    if (this.answered) throw new InternalError({ message: 'The proxy answered one request twice' });
    let head = statusLine(status);
    let close = this.#close || this.#connection.closing;
    for (const name in headers) {
      const value = headers[name] as string;
      if (!fieldValue.test(value))
        throw new InternalError({ message: `Invalid character in the answer's ${name} header` });
      if (name === 'connection') {
        if (value.toLowerCase() === 'close') close = true;
        continue;
      }
      head += `${name}: ${value}\r\n`;
    }
    head += `content-length: ${Buffer.byteLength(text)}\r\ndate: ${httpDate()}\r\n`;
    head += close ? 'connection: close\r\n\r\n' : `${this.#connection.keepAlive}\r\n`;
    this.answered = true;
    this.#connection.answer(head, text, close);
  }

  abort(): void {
    this.answered = true;
    this.#connection.destroy();
  }
}
