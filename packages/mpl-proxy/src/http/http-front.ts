import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { refuseConnection } from '../http-guard';
import type { Exchange } from './exchange';
import { type FrontAnswerer, FrontExchange } from './front-exchange';
import {
  CR_LF_CR_LF,
  type Head,
  hasBareLineBreak,
  notAscii,
  parseHead,
  startsPlainRequest,
} from './http-head';

/** The limits the front layer enforces: the same as the `node:http` server it sits before. */
export interface HttpFrontOptions {
  /** Largest request head served here; a larger one goes to `node:http` (which answers 431). */
  maxHeaderBytes: number;
  /** Largest `Content-Length` served here; a larger one goes to `node:http` (413). */
  maxBodyBytes: number;
  /** Time from a request's first byte to the end of its head (then 408). */
  headersTimeoutMs: number;
  /** Time from a request's first byte to the end of its body (then 408). */
  requestTimeoutMs: number;
  /** How long a connection may wait for its next request (then it is closed). */
  idleTimeoutMs: number;
  /** How often the connections' clocks are checked. */
  checkIntervalMs: number;
}

/** Routes an exchange and answers it (never rejects). */
type Serve = (exchange: Exchange) => Promise<void>;

/**
 * Puts the proxy's own HTTP/1.1 layer in front of `server`: each new connection is read
 * here, and the requests of the common, plain shape — `GET` or `POST`, HTTP/1.1, an
 * origin-form target, each header once, the body framed by `Content-Length` within the
 * limits — are parsed, routed (`serve`) and answered without `node:http`'s request and
 * response objects. At the first request of any other shape (chunked bodies, `Expect`,
 * `Upgrade`, a repeated header, HTTP/1.0, anything malformed, `GET /messages`) the
 * connection is handed, with every unread byte, to `node:http`'s own connection handler,
 * which parses and refuses it exactly as it would have. `server` keeps listening, counting
 * connections (`maxConnections`) and closing (`close`, `closeIdleConnections`,
 * `closeAllConnections` reach this layer's connections too).
 *
 * Does nothing when `server` does not have exactly `node:http`'s one connection listener.
 */
export function installHttpFront(server: Server, options: HttpFrontOptions, serve: Serve): void {
  const listeners = server.listeners('connection');
  const nodeListener = listeners[0] as ((socket: Socket) => void) | undefined;
  if (listeners.length !== 1 || typeof nodeListener !== 'function') return;
  const front = new HttpFront(options, serve, (socket) => nodeListener.call(server, socket));
  server.removeListener('connection', nodeListener);
  server.on('connection', (socket: Socket) => front.accept(socket));
  const closeIdle = server.closeIdleConnections.bind(server);
  server.closeIdleConnections = () => {
    closeIdle();
    front.closeIdle();
  };
  const closeAll = server.closeAllConnections.bind(server);
  server.closeAllConnections = () => {
    closeAll();
    front.closeAll();
  };
  server.once('close', () => front.stop());
}

/** How long after the advertised `Keep-Alive: timeout` an idle connection is closed. */
export const KEEP_ALIVE_GRACE_MS = 1_000;

enum Phase {
  /** Between requests (or before the first byte of the next). */
  Idle,
  /** Reading a request head. */
  Head,
  /** Reading a body of known length. */
  Body,
  /** The request is being served; further bytes wait. */
  Busy,
  /** Closed, or handed to `node:http`. */
  Gone,
}

class HttpFront {
  readonly options: HttpFrontOptions;
  readonly serve: Serve;
  readonly handOff: (socket: Socket) => void;
  readonly keepAlive: string;
  readonly #connections = new Set<FrontConnection>();
  #timer: NodeJS.Timeout | undefined;
  #closing = false;

  constructor(options: HttpFrontOptions, serve: Serve, handOff: (socket: Socket) => void) {
    this.options = options;
    this.serve = serve;
    this.handOff = handOff;
    this.keepAlive = `connection: keep-alive\r\nkeep-alive: timeout=${Math.floor(options.idleTimeoutMs / 1000)}\r\n`;
  }

  accept(socket: Socket): void {
    if (this.#closing) {
      socket.destroy();
      return;
    }
    this.#connections.add(new FrontConnection(this, socket));
    if (this.#timer === undefined) {
      this.#timer = setInterval(() => this.#check(), this.options.checkIntervalMs);
      this.#timer.unref();
    }
  }

  forget(connection: FrontConnection): void {
    this.#connections.delete(connection);
  }

  closeIdle(): void {
    this.#closing = true;
    for (const connection of this.#connections) connection.closeWhenIdle();
  }

  closeAll(): void {
    this.#closing = true;
    for (const connection of this.#connections) connection.destroy();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #check(): void {
    const now = Date.now();
    const { headersTimeoutMs, requestTimeoutMs, idleTimeoutMs } = this.options;
    for (const connection of this.#connections) {
      const waited = now - connection.since;
      const phase = connection.phase;
      if (phase === Phase.Idle) {
        // As node:http does: closed no earlier than 1 s after the advertised timeout, so a
        // client reusing the connection just before the hint runs out is never cut off.
        if (waited >= idleTimeoutMs + KEEP_ALIVE_GRACE_MS) connection.destroy();
      } else if (
        (phase === Phase.Head && waited >= headersTimeoutMs) ||
        (phase === Phase.Body && waited >= requestTimeoutMs)
      )
        connection.timedOut();
    }
  }
}

/** One connection while the front layer reads it. */
class FrontConnection implements FrontAnswerer {
  readonly front: HttpFront;
  readonly socket: Socket;
  phase: Phase = Phase.Head;
  /** When the current phase's clock started: a request's first byte, or the last answer. */
  since = Date.now();
  /** Unread bytes, in arrival order. */
  #chunks: Buffer[] = [];
  #length = 0;
  /** How far the current head has been searched for its end. */
  #scanned = 0;
  #head: Head | undefined;
  #bodyStart = 0;
  /** Close after the answer in progress (the client half-closed, or the server closes). */
  #closeAfter = false;
  readonly #onData = (chunk: Buffer) => this.#received(chunk);
  readonly #onEnd = () => this.#ended();
  readonly #onGone = () => this.#gone();

  constructor(front: HttpFront, socket: Socket) {
    this.front = front;
    this.socket = socket;
    socket.on('data', this.#onData);
    socket.on('end', this.#onEnd);
    socket.on('error', this.#onGone);
    socket.on('close', this.#onGone);
  }

  #received(chunk: Buffer): void {
    if (this.phase === Phase.Gone) return;
    this.#chunks.push(chunk);
    this.#length += chunk.length;
    if (this.phase === Phase.Idle) this.#startRequest();
    else if (this.phase === Phase.Busy) {
      // Bytes sent while a request is served wait; past a whole request's worth, the
      // socket stops reading until the answer is out.
      const { maxHeaderBytes, maxBodyBytes } = this.front.options;
      if (this.#length > maxHeaderBytes + maxBodyBytes) this.socket.pause();
      return;
    }
    this.#advance();
  }

  #startRequest(): void {
    this.phase = Phase.Head;
    this.since = Date.now();
    this.#scanned = 0;
  }

  /** Parses as far as the bytes allow; serves a request once it is whole. */
  #advance(): void {
    const { maxHeaderBytes, maxBodyBytes } = this.front.options;
    if (this.phase === Phase.Head) {
      if (this.#length < 5) return;
      const bytes = this.#flatten();
      if (!startsPlainRequest(bytes)) {
        this.#handOff();
        return;
      }
      const from = Math.max(0, this.#scanned - 3);
      const end = bytes.indexOf(CR_LF_CR_LF, from);
      // A bare CR or LF: node:http refuses it at once (no waiting for a CR LF CR LF).
      if (hasBareLineBreak(bytes, from, end === -1 ? bytes.length : end + 4)) {
        this.#handOff();
        return;
      }
      if (end === -1) {
        this.#scanned = bytes.length;
        if (bytes.length > maxHeaderBytes) this.#handOff();
        return;
      }
      const head =
        end + 4 <= maxHeaderBytes
          ? parseHead(bytes.toString('latin1', 0, end), maxBodyBytes)
          : undefined;
      if (head === undefined) {
        this.#handOff();
        return;
      }
      this.#head = head;
      this.#bodyStart = end + 4;
      this.phase = Phase.Body;
    }
    if (this.phase === Phase.Body) {
      const head = this.#head as Head;
      const end = this.#bodyStart + head.contentLength;
      if (this.#length < end) return;
      const bytes = this.#flatten();
      const body = bytes.subarray(this.#bodyStart, end);
      if (end === bytes.length) {
        this.#chunks = [];
        this.#length = 0;
      } else {
        this.#chunks = [bytes.subarray(end)];
        this.#length = bytes.length - end;
      }
      this.#head = undefined;
      this.phase = Phase.Busy;
      const exchange = new FrontExchange(this, head, body);
      void this.front.serve(exchange).then(
        () => {
          if (!exchange.answered) this.destroy();
        },
        () => this.destroy(),
      );
    }
  }

  #flatten(): Buffer {
    if (this.#chunks.length === 1) return this.#chunks[0] as Buffer;
    const bytes = Buffer.concat(this.#chunks, this.#length);
    this.#chunks = [bytes];
    return bytes;
  }

  /** Writes an answer, then reads on (or closes). */
  answer(head: string, text: string, close: boolean): void {
    if (this.phase !== Phase.Busy) return;
    const socket = this.socket;
    if (notAscii.test(head)) {
      socket.cork();
      socket.write(head, 'latin1');
      socket.write(text, 'utf8');
      socket.uncork();
    } else socket.write(head + text, 'utf8');
    if (close || this.#closeAfter) {
      this.phase = Phase.Gone;
      this.front.forget(this);
      socket.end();
      return;
    }
    this.phase = Phase.Idle;
    this.since = Date.now();
    if (socket.writableNeedDrain) socket.once('drain', () => this.#readOn());
    else this.#readOn();
  }

  /** The front layer's keep-alive lines, for answers that keep the connection. */
  get keepAlive(): string {
    return this.front.keepAlive;
  }

  /** True when the answer being written must close the connection. */
  get closing(): boolean {
    return this.#closeAfter;
  }

  #readOn(): void {
    if (this.phase !== Phase.Idle) return;
    if (this.socket.isPaused()) this.socket.resume();
    if (this.#length > 0) {
      this.#startRequest();
      this.#advance();
    }
  }

  #ended(): void {
    // The client half-closed: a request being served is still answered; a partial one is
    // refused as node:http refuses it; an idle connection is closed.
    if (this.phase === Phase.Busy) this.#closeAfter = true;
    else if (this.phase === Phase.Head || this.phase === Phase.Body) {
      if (this.#length === 0) this.destroy();
      else this.#refuse(400, 'HPE_INVALID_EOF_STATE');
    } else if (this.phase === Phase.Idle) this.destroy();
  }

  /** The head or body did not arrive in time: 408, then close. */
  timedOut(): void {
    this.#refuse(408);
  }

  #refuse(status: number, code?: string): void {
    this.phase = Phase.Gone;
    this.front.forget(this);
    this.#detach();
    this.socket.on('error', () => {});
    refuseConnection(this.socket, status, code);
  }

  closeWhenIdle(): void {
    if (this.phase === Phase.Busy) this.#closeAfter = true;
    else if (this.phase === Phase.Idle || this.#length === 0) this.destroy();
  }

  destroy(): void {
    this.phase = Phase.Gone;
    this.front.forget(this);
    this.socket.destroy();
  }

  #gone(): void {
    this.phase = Phase.Gone;
    this.front.forget(this);
  }

  #detach(): void {
    const socket = this.socket;
    socket.off('data', this.#onData);
    socket.off('end', this.#onEnd);
    socket.off('error', this.#onGone);
    socket.off('close', this.#onGone);
  }

  /** Gives the connection, and every byte not yet read, to `node:http`. */
  #handOff(): void {
    const rest = this.#length > 0 ? this.#flatten() : undefined;
    this.phase = Phase.Gone;
    this.front.forget(this);
    this.#detach();
    this.#chunks = [];
    this.#length = 0;
    if (rest) this.socket.unshift(rest);
    this.front.handOff(this.socket);
    if (this.socket.isPaused()) this.socket.resume();
  }
}
