import { timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  InternalError,
  InvalidRequestError,
  VERSION as MPL_PACKAGE_VERSION,
  MPL_VERSION,
  MplEngine,
  MplError,
  NegotiationIncompatibleError,
  NotFoundError,
  type ProvenanceStore,
  UnauthorizedError,
  verifyChain,
} from '@mtpx/mpl';
import { type Exchange, NodeExchange, sendError, sendJson } from './http/exchange';
import { installHttpFront } from './http/http-front';
import { answerClientError, createProxyGuard, trackAnswer } from './http-guard';
import { ProxyMetrics } from './proxy-metrics';
import {
  DEFAULT_HEADERS_TIMEOUT_MS,
  DEFAULT_IDLE_TIMEOUT_MS,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_HEADER_BYTES,
  DEFAULT_PORT,
  DEFAULT_REQUEST_TIMEOUT_MS,
  defaultDataDir,
  type ProxyOptions,
  type RunningProxy,
} from './proxy-options';
import type { CallRouteContext } from './routes/call-context';
import { handleCall } from './routes/call-route';
import { statusOf } from './routes/error-status';
import { handleHandshake } from './routes/handshake-route';
import { MessageHub } from './routes/message-hub';
import { SqliteProvenanceStore } from './store/sqlite-provenance-store';
import type { LogSyncStats } from './store/wal-sync';
import { VERSION } from './version';

function tokenMatches(expected: string, header: string | undefined): boolean {
  if (!header?.startsWith('Bearer ')) return false;
  const given = Buffer.from(header.slice('Bearer '.length));
  const wanted = Buffer.from(expected);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

/**
 * Starts the MPL proxy: `POST /call` validates, judges, hashes and records each typed
 * message (durably, before answering), then forwards it upstream or acknowledges it.
 *
 * @example
 * ```ts source="./server.examples.ts#startProxy"
 * const proxy = await startProxy({ port: 0, dataDir: '/tmp/mpl' });
 * const client = new MplClient(proxy.url);
 * console.log(await client.health());
 * await proxy.close();
 * ```
 */
export async function startProxy(options: ProxyOptions = {}): Promise<RunningProxy> {
  const engineOptions: Parameters<typeof MplEngine.create>[0] = {
    directories: options.stypes ?? [],
  };
  if (options.hashAlgorithm) engineOptions.hashAlgorithm = options.hashAlgorithm;
  if (options.defaultProfile) engineOptions.defaultProfile = options.defaultProfile;
  const engine = options.engine ?? (await MplEngine.create(engineOptions));
  const store =
    options.store ??
    SqliteProvenanceStore.open({
      dataDir: options.dataDir ?? defaultDataDir(),
      algorithm: engine.hashAlgorithm,
      ...(options.synchronous ? { synchronous: options.synchronous } : {}),
    });
  const mode = options.mode ?? 'strict';
  const metrics = new ProxyMetrics();
  const hub = options.messageHub ?? new MessageHub();
  const context: CallRouteContext = {
    engine,
    store,
    hub,
    metrics,
    mode,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    upstream: options.upstream,
    upstreamTimeoutMs: options.upstreamTimeoutMs ?? 30_000,
    policy: options.policy,
  };
  for (const profile of options.policy?.requiredProfiles ?? [])
    if (!engine.profiles.has(profile))
      throw new NegotiationIncompatibleError({
        message: `The policy requires QoM profile ${profile}, which is not loaded`,
      });

  const guard = createProxyGuard({
    host: options.host ?? '127.0.0.1',
    allowedHosts: options.allowedHosts,
    allowedOrigins: options.allowedOrigins,
  });

  const route = async (exchange: Exchange): Promise<number> => {
    const { method, headers } = exchange;
    const target = guard(exchange);
    if (!target.ok) {
      const { status, error } = target;
      metrics.errors.inc({ code: error.code });
      exchange.node?.request.resume();
      sendError(exchange, status, error, { connection: 'close' });
      return status;
    }
    const { path, query } = target;
    const fail = (
      error: MplError,
      status = statusOf(error.code),
      headers: Record<string, string> = {},
    ) => {
      metrics.errors.inc({ code: error.code });
      sendError(exchange, status, error, headers);
      return status;
    };
    const allow = (allowed: string) =>
      fail(
        new InvalidRequestError({ message: `${path} answers ${allowed} only, not ${method}` }),
        405,
        { allow: allowed },
      );

    if (path === '/health') {
      if (method !== 'GET') return allow('GET');
      sendJson(exchange, 200, { status: 'healthy', version: VERSION });
      return 200;
    }
    if (options.token && !tokenMatches(options.token, headers.authorization))
      return fail(
        new UnauthorizedError({
          message:
            'This proxy requires a bearer token: send Authorization: Bearer <token> (see --token / MPL_TOKEN)',
        }),
        401,
        { 'www-authenticate': 'Bearer realm="mpl"' },
      );

    switch (path) {
      case '/call':
        return method === 'POST' ? handleCall(context, exchange) : allow('POST');
      case '/capabilities':
        if (method !== 'GET') return allow('GET');
        sendJson(exchange, 200, {
          version: VERSION,
          mpl_version: MPL_VERSION,
          mpl_package_version: MPL_PACKAGE_VERSION,
          capabilities: {
            schema_validation: true,
            double_validation: true,
            qom_evaluation: true,
            assertions: true,
            semantic_hashing: true,
            provenance: true,
            durable_provenance:
              store instanceof SqliteProvenanceStore ||
              (store as { durable?: unknown }).durable === true,
            message_stream: true,
            upstream_forwarding: Boolean(options.upstream),
          },
          stypes: engine.registry.ids(),
          profiles: [...engine.profiles.keys()],
          mode,
          hash_algorithm: engine.hashAlgorithm,
        });
        return 200;
      case '/.well-known/ai-alpn':
        return method === 'POST' ? handleHandshake(context, exchange) : allow('POST');
      case '/stypes':
        if (method !== 'GET') return allow('GET');
        sendJson(exchange, 200, {
          stypes: engine.registry.list({
            namespace: query.get('namespace') ?? undefined,
          }),
        });
        return 200;
      case '/provenance':
      case '/provenance/verify': {
        if (method !== 'GET') return allow('GET');
        const planId = query.get('planId');
        if (!planId)
          return fail(
            new InvalidRequestError({ message: `${path} needs ?planId=<the plan's id>` }),
          );
        const verify = path === '/provenance/verify';
        const chain = await store.chain(planId, {
          payloads: verify || query.get('payloads') === 'true',
        });
        if (chain.length === 0)
          return fail(
            new NotFoundError({ message: `No provenance is recorded for plan ${planId}` }),
          );
        sendJson(exchange, 200, verify ? { planId, ...verifyChain(chain) } : { planId, chain });
        return 200;
      }
      case '/metrics':
        if (method !== 'GET') return allow('GET');
        exchange.send(200, metrics.render(hub.size, logSyncStatsOf(store)), {
          'content-type': 'text/plain; version=0.0.4; charset=utf-8',
        });
        return 200;
      case '/messages':
        if (method !== 'GET') return allow('GET');
        if (!exchange.node)
          throw new InternalError({ message: 'GET /messages reached the proxy without node:http' });
        hub.subscribe(exchange.node.response, query.getAll('stype'));
        return 200;
      default:
        if (path.startsWith('/stypes/')) {
          if (method !== 'GET') return allow('GET');
          const id = path.slice('/stypes/'.length);
          const definition = engine.registry.get(id);
          if (!definition)
            return fail(new NotFoundError({ message: `SType ${id} is not registered` }));
          const { source: _source, ...shown } = definition;
          sendJson(exchange, 200, shown);
          return 200;
        }
        return fail(new NotFoundError({ message: `No route ${method} ${path}` }));
    }
  };

  /** Routes one exchange, counts it, and turns anything thrown into a typed answer. */
  const serve = (exchange: Exchange): Promise<void> =>
    route(exchange).then(
      (status) =>
        metrics.requests.inc({ route: routeLabel(exchange.target), status: String(status) }),
      (error: unknown) => {
        // A typed error of the client's making keeps its 4xx; anything else is ours.
        const clientError = MplError.isInstance(error) && statusOf(error.code) < 500;
        const status = clientError ? statusOf(error.code) : 500;
        const typed = clientError
          ? error
          : new MplError({
              code: 'E-INTERNAL',
              message: `The proxy failed: ${error instanceof Error ? error.message : String(error)}`,
              cause: error,
            });
        metrics.requests.inc({ route: routeLabel(exchange.target), status: String(status) });
        metrics.errors.inc({ code: typed.code });
        try {
          if (!exchange.answered) sendError(exchange, status, typed);
          else exchange.abort();
        } catch {
          exchange.abort();
        }
      },
    );

  const headersTimeoutMs = options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS;
  const timeouts = {
    headersTimeoutMs,
    requestTimeoutMs: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    idleTimeoutMs: options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
    // Timeouts are enforced when the connections are checked: often enough to keep them.
    checkIntervalMs: Math.max(50, Math.min(1_000, Math.floor(headersTimeoutMs / 4))),
  };
  const maxHeaderBytes = options.maxHeaderBytes ?? DEFAULT_MAX_HEADER_BYTES;
  const server = createServer(
    {
      maxHeaderSize: maxHeaderBytes,
      headersTimeout: timeouts.headersTimeoutMs,
      requestTimeout: timeouts.requestTimeoutMs,
      keepAliveTimeout: timeouts.idleTimeoutMs,
      connectionsCheckingInterval: timeouts.checkIntervalMs,
    },
    (request, response) => {
      trackAnswer(request.socket, request, response);
      void serve(new NodeExchange(request, response));
    },
  );
  // With `httpLayer: 'fast'`, the plain requests are read by the proxy's own HTTP layer; it
  // hands every other connection to node:http above, at a request boundary.
  if (options.httpLayer === 'fast')
    installHttpFront(
      server,
      { ...timeouts, maxHeaderBytes, maxBodyBytes: context.maxBodyBytes },
      serve,
    );
  server.maxConnections = options.maxConnections ?? 1024;
  server.on('clientError', answerClientError);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? DEFAULT_PORT, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${address.port}`,
    host: address.address,
    port: address.port,
    mode,
    engine,
    store,
    metrics,
    server,
    close() {
      closing ??= (async () => {
        hub.close();
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        await closed;
        await store.close();
      })();
      return closing;
    },
  };
}

/** The log sync statistics of a store that keeps them (SQLite with `synchronous: 'full'`). */
function logSyncStatsOf(store: ProvenanceStore): LogSyncStats | undefined {
  return store instanceof SqliteProvenanceStore ? store.logSyncStats : undefined;
}

const knownRoutes = new Set([
  '/call',
  '/health',
  '/capabilities',
  '/.well-known/ai-alpn',
  '/stypes',
  '/provenance',
  '/provenance/verify',
  '/metrics',
  '/messages',
]);

function routeLabel(target: string): string {
  if (knownRoutes.has(target)) return target;
  const path = target.split('?')[0]?.replace(/\/+$/, '') || '/';
  if (knownRoutes.has(path)) return path;
  return path.startsWith('/stypes/') ? '/stypes/:id' : 'other';
}
