import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequestGuard } from '@mtpx/http-guard';
import { parseChatRequest } from './chat-request';
import { chat } from './chat-route';
import type { ModelSource } from './models';
import { loadStaticFiles } from './static-files';

/** Options of {@link serveChat}. */
export interface ServeChatOptions {
  /** Where the model of each chat request comes from. */
  models: ModelSource;
  /** The page's label for the model, and the question it suggests. */
  config: { label: string; question: string };
  /** The built page (`vite build`'s dist folder). */
  staticDir: string;
  /** Default 0 (a free port). */
  port?: number;
  /** Default `127.0.0.1`. */
  host?: string;
}

/** A running chat server. */
export interface ChatServer {
  url: string;
  server: Server;
  close(): Promise<void>;
}

/** The largest chat request body (the whole conversation): 1 MiB. */
export const MAX_BODY_BYTES = 1024 * 1024;

const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'content-security-policy':
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'",
};

function sendJson(response: ServerResponse, status: number, value: unknown): void {
  const body = Buffer.from(JSON.stringify(value));
  response.writeHead(status, {
    ...SECURITY_HEADERS,
    'content-type': 'application/json; charset=utf-8',
    'content-length': body.length,
    'cache-control': 'no-store',
  });
  response.end(body);
}

function sendError(response: ServerResponse, status: number, code: string, message: string): void {
  sendJson(response, status, { error: { code, message } });
}

/** The body as text, or `undefined` when it passes the limit (the announced length is checked first). */
async function readBody(request: IncomingMessage, limit: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > limit) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Sends a web `Response` (the UI message stream) on a node response, stopping when the client goes. */
async function pipeResponse(web: Response, response: ServerResponse, abort: AbortController) {
  response.writeHead(web.status, { ...SECURITY_HEADERS, ...Object.fromEntries(web.headers) });
  const reader = web.body?.getReader();
  if (reader === undefined) return void response.end();
  response.once('close', () => {
    if (!response.writableFinished) {
      abort.abort(new Error('The client went away.'));
      reader.cancel().catch(() => undefined);
    }
  });
  for (;;) {
    const next = await reader.read();
    if (next.done) break;
    if (!response.write(next.value)) {
      await new Promise((resolve) => response.once('drain', resolve));
    }
  }
  response.end();
}

/**
 * The example app's server: the built `useChat` page, `GET /api/config`, and
 * `POST /api/chat`, whose answer is the AI SDK UI message stream of an MTPX agent run.
 * Loopback by default; `Host` and `Origin` checked by `@mtpx/http-guard`; JSON bodies of at
 * most 1 MiB; header, request and keep-alive timeouts; errors as `{ error: { code, message } }`.
 */
export async function serveChat(options: ServeChatOptions): Promise<ChatServer> {
  const host = options.host ?? '127.0.0.1';
  const files = loadStaticFiles(options.staticDir);
  const guard = createRequestGuard({
    boundHost: host,
    methods: ['GET', 'HEAD', 'POST'],
    jsonBodyMethods: ['POST'],
    maxBodyBytes: MAX_BODY_BYTES,
  });

  const route = async (request: IncomingMessage, response: ServerResponse) => {
    const refusal = guard({ method: request.method, headers: request.headers });
    if (refusal) return sendError(response, refusal.status, refusal.kind, refusal.message);
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    if (path === '/api/chat') {
      if (request.method !== 'POST') {
        response.setHeader('allow', 'POST');
        return sendError(response, 405, 'method_not_allowed', 'POST a chat request here.');
      }
      const text = await readBody(request, MAX_BODY_BYTES);
      if (text === undefined) {
        return sendError(
          response,
          413,
          'body_too_large',
          `The body passes ${MAX_BODY_BYTES} bytes.`,
        );
      }
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        return sendError(response, 400, 'invalid_json', 'The body is not JSON.');
      }
      const chatRequest = parseChatRequest(body);
      if ('error' in chatRequest)
        return sendError(response, 400, 'invalid_request', chatRequest.error);
      const lease = await options.models.lease(chatRequest.id);
      const abort = new AbortController();
      try {
        const web = await chat(chatRequest, lease.model, abort.signal);
        await pipeResponse(web, response, abort);
      } finally {
        await lease.release();
      }
      return;
    }
    if (request.method === 'POST') {
      return sendError(response, 405, 'method_not_allowed', `Only /api/chat takes POST.`);
    }
    if (path === '/api/config') return sendJson(response, 200, options.config);
    const file = files.get(path === '/' ? '/index.html' : path);
    if (file === undefined) return sendError(response, 404, 'not_found', `No page ${path}.`);
    response.writeHead(200, {
      ...SECURITY_HEADERS,
      'content-type': file.type,
      'content-length': file.body.length,
    });
    response.end(request.method === 'HEAD' ? undefined : file.body);
  };

  const server = createServer(
    { headersTimeout: 10_000, requestTimeout: 30_000, maxHeaderSize: 16 * 1024 },
    (request, response) => {
      route(request, response).catch((error: unknown) => {
        if (!response.headersSent) {
          const message = error instanceof Error ? error.message : String(error);
          sendError(response, 500, 'internal_error', message);
        } else response.destroy();
      });
    },
  );
  server.keepAliveTimeout = 5_000;
  // A chat answer streams for as long as the run lasts; idle sockets close after keepAliveTimeout.
  server.timeout = 0;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shown}:${address.port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }).then(() => options.models.close()),
  };
}
