import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the replay server received. */
export interface ReplayRequest {
  method: string;
  /** Path and query (`/v1/responses`, `/model/…/converse-stream`). */
  path: string;
  /** Header names in lower case. */
  headers: Record<string, string>;
  /** The body parsed as JSON (`undefined` when it is not JSON). */
  body: Record<string, unknown> | undefined;
}

/** What the server answers to one request: a status, headers, and the body in chunks. */
export interface ReplayAnswer {
  status?: number;
  headers?: Record<string, string>;
  /** Written one by one, in order (text as UTF-8). */
  chunks: ReadonlyArray<string | Uint8Array>;
  /**
   * Holds the rest of the answer back: chunk `before` is written only once `until`
   * settles, so a test can observe what the client did with the chunks before it.
   */
  hold?: { before: number; until: Promise<unknown> };
}

/** A running replay server. */
export interface ReplayServer {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** Every request, in order. */
  readonly requests: readonly ReplayRequest[];
  close(): Promise<void>;
}

const maxBodyBytes = 4 * 1024 * 1024;

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > maxBodyBytes) throw new Error('request body over 4 MiB');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parseBody(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value != null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A local HTTP server on 127.0.0.1 (a free port) that plays a model API back to a real AI
 * SDK provider package: each request is recorded and answered by `answer` — a recorded
 * stream, or the API's own error when the request breaks one of its rules.
 */
export async function startReplayServer(
  answer: (request: ReplayRequest, index: number) => ReplayAnswer,
): Promise<ReplayServer> {
  const requests: ReplayRequest[] = [];
  const server = createServer((request, response) => {
    void (async () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.headers)) {
        if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
      }
      const recorded: ReplayRequest = {
        method: request.method ?? 'GET',
        path: request.url ?? '/',
        headers,
        body: parseBody(await readBody(request)),
      };
      const index = requests.length;
      requests.push(recorded);
      const reply = answer(recorded, index);
      response.writeHead(reply.status ?? 200, reply.headers ?? {});
      for (const [position, chunk] of reply.chunks.entries()) {
        if (reply.hold !== undefined && reply.hold.before === position) await reply.hold.until;
        if (response.destroyed) return;
        // Each chunk reaches the client before the next is written.
        await new Promise<void>((resolve) => response.write(chunk, () => resolve()));
      }
      response.end();
    })().catch((error: unknown) => {
      if (response.headersSent) response.destroy();
      else {
        response.writeHead(500, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { message: `replay server: ${String(error)}` } }));
      }
    });
  });
  server.requestTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** A JSON error answer (`x-should-retry: false`, so no client retries it). */
export function errorAnswer(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): ReplayAnswer {
  return {
    status,
    headers: { 'content-type': 'application/json', 'x-should-retry': 'false', ...headers },
    chunks: [JSON.stringify(body)],
  };
}
