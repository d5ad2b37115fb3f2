import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { safeParseJson } from '@mtpx/protocol';

/** One server-sent event: its `data` text, with an optional `event` name. */
export type SseEvent = string | { event?: string; data: string };

/** A whole JSON answer (a completion, or an API error with its status). */
export interface JsonResponseScript {
  type: 'json';
  body: unknown;
  /** Default 200. */
  status?: number;
  headers?: Record<string, string>;
  /** Milliseconds before the answer is sent. */
  delayMs?: number;
}

/** A streamed answer: server-sent events written one by one. */
export interface SseResponseScript {
  type: 'sse';
  /**
   * The events, in order: a list, or an async iterable a test feeds at its own pace (to
   * hold back part of a stream until something has happened on the client's side).
   */
  events: readonly SseEvent[] | AsyncIterable<SseEvent>;
  /** Default 200. */
  status?: number;
  headers?: Record<string, string>;
  /** Milliseconds before the status line and first event (time to first byte). */
  firstByteDelayMs?: number;
  /** Milliseconds between events. */
  chunkDelayMs?: number;
  /**
   * How the stream ends: `close` ends the response normally (default); `destroy` cuts
   * the connection after the last event, as a dropped network does.
   */
  end?: 'close' | 'destroy';
}

/** What the server answers to one request. */
export type ResponseScript = JsonResponseScript | SseResponseScript;

/** A request the server received. */
export interface RecordedRequest {
  method: string;
  /** The path and query (`/v1/chat/completions`). */
  path: string;
  /** Header names in lower case. */
  headers: Record<string, string>;
  /** The body parsed as JSON, or the raw text when it is not JSON. */
  body: unknown;
  rawBody: string;
}

/** How a model server answers. */
export interface ModelServerOptions {
  /**
   * The answers, one per request in order, or a function of the request (and its
   * 0-based number). When a list runs out, the server answers 500 with
   * `x-should-retry: false` so SDK clients do not retry.
   */
  responses:
    | readonly ResponseScript[]
    | ((request: RecordedRequest, index: number) => ResponseScript | Promise<ResponseScript>);
  /** Default `127.0.0.1`. */
  host?: string;
  /** Default 0: a free port. */
  port?: number;
}

/** A running model server. */
export interface ModelServer {
  /** `http://127.0.0.1:<port>`: add the API's path prefix (`/v1`) for a client's base URL. */
  readonly url: string;
  /** Every request received, in order. */
  readonly requests: readonly RecordedRequest[];
  /** Stops the server, cutting open connections. */
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function formatEvent(event: SseEvent): string {
  const { event: name, data } =
    typeof event === 'string' ? { event: undefined, data: event } : event;
  const dataLines = data
    .split('\n')
    .map((line) => `data: ${line}`)
    .join('\n');
  return `${name === undefined ? '' : `event: ${name}\n`}${dataLines}\n\n`;
}

/** Waits, unless the exchange is over first (the client went away or the server closed). */
async function pause(milliseconds: number | undefined, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return false;
  if (!milliseconds) return true;
  try {
    await delay(milliseconds, undefined, { signal });
    return true;
  } catch {
    return false;
  }
}

/** The next event of an async source, or `undefined` when it ends or the exchange is over first. */
async function nextEvent(
  iterator: AsyncIterator<SseEvent>,
  signal: AbortSignal,
): Promise<IteratorResult<SseEvent> | undefined> {
  if (signal.aborted) return undefined;
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<undefined>((resolve) => {
    onAbort = () => resolve(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([iterator.next(), aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort as () => void);
  }
}

async function writeSse(
  response: ServerResponse,
  script: SseResponseScript,
  signal: AbortSignal,
): Promise<void> {
  if (!(await pause(script.firstByteDelayMs, signal))) return;
  response.writeHead(script.status ?? 200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    ...script.headers,
  });
  const source = script.events;
  const iterator: AsyncIterator<SseEvent> =
    Symbol.asyncIterator in source
      ? source[Symbol.asyncIterator]()
      : (async function* () {
          yield* source;
        })();
  for (let index = 0; ; index++) {
    const next = await nextEvent(iterator, signal);
    if (next === undefined) {
      // The exchange ended while the source was still waiting: let it clean up.
      Promise.resolve(iterator.return?.()).catch(() => {});
      return;
    }
    if (next.done) break;
    if (index > 0 && !(await pause(script.chunkDelayMs, signal))) return;
    if (response.destroyed) return;
    response.write(formatEvent(next.value));
  }
  if (script.end === 'destroy') {
    // Let the last event reach the client before the connection drops.
    await new Promise<void>((resolve) => response.write('', () => resolve()));
    response.socket?.destroy();
    return;
  }
  response.end();
}

async function writeJson(
  response: ServerResponse,
  script: JsonResponseScript,
  signal: AbortSignal,
): Promise<void> {
  if (!(await pause(script.delayMs, signal))) return;
  const text = typeof script.body === 'string' ? script.body : JSON.stringify(script.body);
  response.writeHead(script.status ?? 200, {
    'content-type': 'application/json',
    ...script.headers,
  });
  response.end(text);
}

/**
 * An HTTP server on 127.0.0.1 that plays a scripted model API: JSON answers or SSE
 * streams (with a time to first byte and delays between events), API errors with any
 * status and headers (`retry-after`), and streams cut off mid-way. It records every
 * request, so a test can snapshot the body the real SDK client sent.
 *
 * @example
 * ```ts source="./testing.examples.ts#startModelServer"
 * const server = await startModelServer({ responses: [{ type: 'json', body: completion }] });
 * const provider = createOpenAIProvider({
 *   model: 'gpt-4.1-mini',
 *   apiKey: 'test',
 *   baseURL: `${server.url}/v1`,
 * });
 * await provider.generate({ messages, tools });
 * server.requests[0]?.body; // what the openai SDK sent
 * await server.close();
 * ```
 */
export async function startModelServer(options: ModelServerOptions): Promise<ModelServer> {
  const requests: RecordedRequest[] = [];
  // Open exchanges, so closing the server ends their pending delays: no timer outlives it.
  const exchanges = new Set<AbortController>();
  const answer = async (recorded: RecordedRequest, index: number): Promise<ResponseScript> => {
    const { responses } = options;
    if (typeof responses === 'function') return responses(recorded, index);
    return (
      responses[index] ?? {
        type: 'json',
        status: 500,
        headers: { 'x-should-retry': 'false' },
        body: {
          error: {
            type: 'server_error',
            message: `model server: no scripted response left for request ${index + 1} (the script holds ${responses.length}).`,
          },
        },
      }
    );
  };

  const server = createServer((request, response) => {
    // The exchange is over when the client goes away (a cancelled request) or the server closes.
    const exchange = new AbortController();
    exchanges.add(exchange);
    response.on('close', () => {
      exchange.abort();
      exchanges.delete(exchange);
    });
    const { signal } = exchange;
    void (async () => {
      const rawBody = await readBody(request);
      const parsed = safeParseJson(rawBody);
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.headers)) {
        if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
      }
      const recorded: RecordedRequest = {
        method: request.method ?? 'GET',
        path: request.url ?? '/',
        headers,
        body: parsed.ok ? parsed.value : rawBody,
        rawBody,
      };
      const index = requests.length;
      requests.push(recorded);
      const script = await answer(recorded, index);
      if (script.type === 'sse') await writeSse(response, script, signal);
      else await writeJson(response, script, signal);
    })().catch((error: unknown) => {
      if (response.headersSent) response.destroy();
      else {
        response.writeHead(500, { 'content-type': 'application/json', 'x-should-retry': 'false' });
        response.end(JSON.stringify({ error: { message: `model server: ${String(error)}` } }));
      }
    });
  });

  // An idle connection stays open as long as a real API keeps it: with node:http's 5 s, a
  // client reusing one on a starved machine (its timers late) met the close (ECONNRESET).
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  return {
    url: `http://${host}:${address.port}`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const exchange of exchanges) exchange.abort();
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
