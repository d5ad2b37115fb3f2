import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InspectorError } from '../inspector-error';
import { DEFAULT_PORT } from '../links';
import { runFilePath } from '../record/run-files';
import { listRuns, readRun } from '../record/run-store';
import { type ProvenanceSource, readProvenance } from './provenance';
import { createInspectorGuard, drainRefusedBody } from './request-guard';
import { streamRun } from './run-stream';
import { loadWebAssets, type WebAssets } from './web-assets';

/** Options of {@link serveInspector}. */
export interface ServeInspectorOptions {
  /** The data folder `recordRuns` writes into. */
  dataDir: string;
  /** Default 4319; 0 picks a free port. */
  port?: number;
  /** Default `127.0.0.1`. Another address exposes your runs to that network. */
  host?: string;
  /** Where the Inspector reads MPL provenance chains (`/provenance`): a proxy's URL or its data folder. */
  mplProxy?: ProvenanceSource;
}

/** A running Inspector. */
export interface InspectorServer {
  /** `http://host:port` */
  url: string;
  /** The port it listens on (the one the system chose, for port 0). */
  port: number;
  /** The underlying `node:http` server. */
  server: Server;
  /** Stops listening and closes every connection, live event streams included. */
  close(): Promise<void>;
}

const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'content-security-policy':
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'",
  'cache-control': 'no-store',
};

function send(
  response: ServerResponse,
  status: number,
  type: string,
  body: Buffer | string,
  head: boolean,
): void {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  response.writeHead(status, {
    ...SECURITY_HEADERS,
    'content-type': type,
    'content-length': bytes.length,
  });
  response.end(head ? undefined : bytes);
}

/** Answers with JSON; errors have the shape `{ error: { code, message } }`. */
function sendJson(response: ServerResponse, status: number, value: unknown, head = false): void {
  send(response, status, 'application/json; charset=utf-8', JSON.stringify(value), head);
}

function sendError(response: ServerResponse, status: number, code: string, message: string): void {
  sendJson(response, status, { error: { code, message } });
}

const appRoutes = /^\/(?:|runs(?:\/[^/]+)?|compare|provenance)$/;

/**
 * Starts the Inspector's server: the web app, and its JSON API —
 * `GET /api/runs` → `{ runs: RunSummary[] }`, `GET /api/runs/:runId` → the run (summary,
 * view and events), `GET /api/runs/:runId/events` → a server-sent event stream of the
 * run's events (the recorded ones, then each new one as it is written), and
 * `GET /api/provenance?planId=…` when an MPL proxy is configured. Only `GET`/`HEAD`; the
 * `Host` and `Origin` headers are checked; bad requests are 4xx `{ error: { code, message } }`.
 *
 * @example
 * ```ts source="./inspector-server.examples.ts#serveInspector"
 * const inspector = await serveInspector({ dataDir: '.mtpx/runs', port: 0 });
 * console.log(inspector.url);
 * await inspector.close();
 * ```
 */
export async function serveInspector(options: ServeInspectorOptions): Promise<InspectorServer> {
  if (typeof options?.dataDir !== 'string' || options.dataDir === '')
    throw new InspectorError({
      code: 'invalid_option',
      message: 'serveInspector needs `dataDir`.',
    });
  const { dataDir } = options;
  const host = options.host ?? '127.0.0.1';
  const assets: WebAssets = loadWebAssets();
  const streams = new Set<ServerResponse>();
  const guard = createInspectorGuard(host);

  const route = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const refusal = guard(request);
    if (refusal) {
      // The refused request's body is read first, and the connection closed after the
      // answer: the client gets the refusal whole, never a reset in its place.
      await drainRefusedBody(request);
      response.setHeader('connection', 'close');
      return sendError(response, refusal.status, refusal.kind, refusal.message);
    }
    const head = request.method === 'HEAD';
    let url: URL;
    let path: string;
    try {
      url = new URL(request.url ?? '/', 'http://inspector.local');
      path = decodeURIComponent(url.pathname);
    } catch {
      return sendError(response, 400, 'invalid_path', 'The path is not valid URL encoding.');
    }
    if (path === '/api/health') return sendJson(response, 200, { ok: true }, head);
    if (path === '/api/runs')
      return sendJson(response, 200, { runs: await listRuns(dataDir) }, head);
    const runMatch = /^\/api\/runs\/([^/]+)(\/events)?$/.exec(path);
    if (runMatch) {
      const runId = runMatch[1] as string;
      if (runMatch[2]) {
        const from = Number(url.searchParams.get('from') ?? request.headers['last-event-id'] ?? 0);
        if (!Number.isInteger(from) || from < 0)
          return sendError(
            response,
            400,
            'invalid_query',
            '`from` must be a whole number of events.',
          );
        return streamRun(
          request,
          response,
          runFilePath(dataDir, runId),
          from,
          streams,
          SECURITY_HEADERS,
        );
      }
      try {
        const run = await readRun(dataDir, runId);
        return sendJson(
          response,
          200,
          {
            runId: run.runId,
            summary: run.summary,
            header: run.header ?? null,
            skippedLines: run.skippedLines,
            view: run.view,
            events: run.events,
          },
          head,
        );
      } catch (error) {
        if (InspectorError.isInstance(error) && error.code === 'run_not_found')
          return sendError(response, 404, 'run_not_found', error.message);
        throw error;
      }
    }
    if (path === '/api/provenance') {
      if (options.mplProxy === undefined)
        return sendError(
          response,
          404,
          'provenance_not_configured',
          'Start the Inspector with --mpl-proxy URL or --mpl-data DIR to show provenance chains.',
        );
      const planId = url.searchParams.get('planId') ?? '';
      if (planId === '' || planId.length > 200)
        return sendError(
          response,
          400,
          'invalid_query',
          '`planId` is required (at most 200 characters).',
        );
      const result = await readProvenance(options.mplProxy, planId);
      return sendJson(response, result.status, result.body, head);
    }
    if (path.startsWith('/api/'))
      return sendError(response, 404, 'not_found', `No API route ${path}.`);
    const asset = assets.files.get(path);
    if (asset) return send(response, 200, asset.type, asset.body, head);
    if (appRoutes.test(path))
      return send(response, 200, assets.index.type, assets.index.body, head);
    return sendError(response, 404, 'not_found', `No page ${path}.`);
  };

  const server = createServer(
    { headersTimeout: 10_000, requestTimeout: 30_000, maxHeaderSize: 16 * 1024 },
    (request, response) => {
      route(request, response).catch((error: unknown) => {
        if (!response.headersSent)
          sendError(
            response,
            500,
            'internal_error',
            error instanceof Error ? error.message : String(error),
          );
        else response.destroy();
      });
    },
  );
  server.keepAliveTimeout = 5_000;
  server.timeout = 0; // event streams stay open; idle sockets close after keepAliveTimeout.
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) =>
      reject(
        new InspectorError({
          code: 'listen_failed',
          message: `The Inspector could not listen on ${host}:${options.port ?? DEFAULT_PORT}: ${error.message}`,
          cause: error,
        }),
      ),
    );
    server.listen(options.port ?? DEFAULT_PORT, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shown}:${address.port}`,
    port: address.port,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        for (const stream of streams) stream.end();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
