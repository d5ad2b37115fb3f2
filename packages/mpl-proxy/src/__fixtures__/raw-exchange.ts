import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { open, rawRequest } from './raw-http';

/** One HTTP/1.x response read off a raw connection. */
export interface RawResponse {
  /** `HTTP/1.1` or `HTTP/1.0`, as the status line says. */
  version: string;
  status: number;
  reason: string;
  /** Header names in lower case; repeated headers joined with `, `. */
  headers: Record<string, string>;
  /** The body, de-chunked when the response was chunked. */
  body: Buffer;
  /** The body as UTF-8 text. */
  text: string;
}

const headEnd = Buffer.from('\r\n\r\n');
const lineEnd = Buffer.from('\r\n');

/** Thrown when the connection closes before a whole response arrived. */
export class ConnectionClosedError extends Error {
  constructor(readonly pending: Buffer) {
    super(
      `The connection closed before a whole response arrived (${pending.length} bytes pending: ${JSON.stringify(pending.toString('latin1').slice(0, 200))})`,
    );
  }
}

/**
 * Reads responses one after another from a raw keep-alive socket: status line, headers,
 * then a `Content-Length` or chunked body (or, for neither, everything until the close).
 * 1xx responses are returned as responses of their own, without a body.
 */
export class ResponseReader {
  readonly socket: Socket;
  #buffer: Buffer = Buffer.alloc(0);
  #ended = false;
  #wake: (() => void) | undefined;
  readonly #closed: Promise<void>;

  constructor(socket: Socket) {
    this.socket = socket;
    socket.on('data', (chunk: Buffer) => {
      this.#buffer = this.#buffer.length === 0 ? chunk : Buffer.concat([this.#buffer, chunk]);
      this.#notify();
    });
    socket.on('error', () => {});
    socket.on('end', () => {
      this.#ended = true;
      this.#notify();
    });
    this.#closed = new Promise((resolve) =>
      socket.once('close', () => {
        this.#ended = true;
        this.#notify();
        resolve();
      }),
    );
  }

  /** Bytes received and not yet returned as part of a response. */
  get pending(): Buffer {
    return this.#buffer;
  }

  /** True once the server ended its side of the connection. */
  get ended(): boolean {
    return this.#ended;
  }

  /** The next whole response; rejects with {@link ConnectionClosedError} if the server closes first. */
  async next(): Promise<RawResponse> {
    for (;;) {
      const response = this.#parse();
      if (response) return response;
      if (this.#ended) throw new ConnectionClosedError(this.#buffer);
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
      });
    }
  }

  /** Resolves once the socket is closed, with the bytes received that no response consumed. */
  async closed(): Promise<Buffer> {
    await this.#closed;
    return this.#buffer;
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  #parse(): RawResponse | undefined {
    const buffer = this.#buffer;
    const end = buffer.indexOf(headEnd);
    if (end === -1) return undefined;
    const [statusLine = '', ...headerLines] = buffer
      .subarray(0, end)
      .toString('latin1')
      .split('\r\n');
    const match = /^(HTTP\/1\.[01]) (\d{3})(?: (.*))?$/.exec(statusLine);
    if (!match) throw new Error(`Not an HTTP status line: ${JSON.stringify(statusLine)}`);
    const headers: Record<string, string> = {};
    for (const line of headerLines) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
    }
    const status = Number(match[2]);
    const bodyStart = end + headEnd.length;
    let body: Buffer;
    let consumed: number;
    if ((status >= 100 && status < 200) || status === 204 || status === 304) {
      body = Buffer.alloc(0);
      consumed = bodyStart;
    } else if (headers['transfer-encoding']?.toLowerCase().includes('chunked')) {
      const chunked = readChunked(buffer, bodyStart);
      if (!chunked) return undefined;
      ({ body, consumed } = chunked);
    } else if (headers['content-length'] !== undefined) {
      const length = Number(headers['content-length']);
      if (buffer.length < bodyStart + length) return undefined;
      body = buffer.subarray(bodyStart, bodyStart + length);
      consumed = bodyStart + length;
    } else {
      // Neither length nor chunks: the body runs until the server closes.
      if (!this.#ended) return undefined;
      body = buffer.subarray(bodyStart);
      consumed = buffer.length;
    }
    this.#buffer = buffer.subarray(consumed);
    return {
      version: match[1] as string,
      status,
      reason: match[3] ?? '',
      headers,
      body,
      text: body.toString('utf8'),
    };
  }
}

function readChunked(
  buffer: Buffer,
  start: number,
): { body: Buffer; consumed: number } | undefined {
  const chunks: Buffer[] = [];
  let offset = start;
  for (;;) {
    const sizeEnd = buffer.indexOf(lineEnd, offset);
    if (sizeEnd === -1) return undefined;
    const size = Number.parseInt(buffer.subarray(offset, sizeEnd).toString('latin1'), 16);
    if (Number.isNaN(size)) throw new Error('Malformed chunk size in a chunked response');
    offset = sizeEnd + lineEnd.length;
    if (size === 0) {
      // Trailers (none expected), then the closing empty line.
      const trailersEnd = buffer.indexOf(lineEnd, offset);
      if (trailersEnd === -1) return undefined;
      if (trailersEnd !== offset) {
        const end = buffer.indexOf(headEnd, offset);
        if (end === -1) return undefined;
        return { body: Buffer.concat(chunks), consumed: end + headEnd.length };
      }
      return { body: Buffer.concat(chunks), consumed: offset + lineEnd.length };
    }
    if (buffer.length < offset + size + lineEnd.length) return undefined;
    chunks.push(buffer.subarray(offset, offset + size));
    offset += size + lineEnd.length;
  }
}

/** An open raw connection and the reader of its responses. */
export interface RawExchange {
  socket: Socket;
  reader: ResponseReader;
  /** Writes bytes and resolves once they are handed to the kernel. */
  send(bytes: string | Buffer): Promise<void>;
}

/** Opens a raw keep-alive connection (Nagle off, so small writes leave as they are written). */
export async function openExchange(port: number): Promise<RawExchange> {
  const socket = await open(port);
  socket.setNoDelay(true);
  const reader = new ResponseReader(socket);
  return { socket, reader, send: (bytes) => write(socket, bytes) };
}

/** Writes bytes and resolves once they are flushed to the kernel. */
export function write(socket: Socket, bytes: string | Buffer): Promise<void> {
  return new Promise((resolve, reject) =>
    socket.write(bytes, (error) => (error ? reject(error) : resolve())),
  );
}

/** Resolves on the next turn of the event loop, after pending I/O callbacks. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Writes `bytes` in pieces of `size`, each flushed and followed by a turn of the event loop. */
export async function writeInPieces(socket: Socket, bytes: string | Buffer, size: number) {
  const all = typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : bytes;
  for (let offset = 0; offset < all.length; offset += size) {
    await write(socket, all.subarray(offset, offset + size));
    await nextTurn();
  }
}

/** A raw HTTP/1.1 request head and body, keep-alive (no `Connection` header unless given). */
export function keepAliveRequest(
  method: string,
  target: string,
  headers: Record<string, string>,
  body: string | Buffer = '',
): Buffer {
  return rawRequest(method, target, headers, body, { keepAlive: true });
}

/** A body in `Transfer-Encoding: chunked` framing, split into the given pieces. */
export function chunkedBody(...pieces: Array<string | Buffer>): Buffer {
  const parts: Buffer[] = [];
  for (const piece of pieces) {
    const bytes = typeof piece === 'string' ? Buffer.from(piece) : piece;
    parts.push(Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, lineEnd);
  }
  parts.push(Buffer.from('0\r\n\r\n'));
  return Buffer.concat(parts);
}

/**
 * The status a bare `node:http` server of this runtime answers `bytes` with (200 once it
 * has read a request, its parser's own 400 otherwise): the reference for the heads whose
 * reading changed between Node releases (llhttp).
 */
export async function bareNodeHttpStatus(bytes: (host: string) => string): Promise<number> {
  const server = createServer((request, response) => {
    request.resume();
    request.once('end', () => response.end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const exchange = await openExchange(port);
  try {
    await exchange.send(bytes(`127.0.0.1:${port}`));
    return (await exchange.reader.next()).status;
  } finally {
    exchange.socket.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

