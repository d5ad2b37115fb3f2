import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseTarget, refuse } from '@mtpx/http-guard';
import { McpAdapterError } from '../errors';
import type { McpToolServer } from '../server/mcp-tool-server';
import { createHttpGuard, refusalResponse } from './http-guard';
import { createMcpHttpHandler, type McpHttpHandlerOptions } from './http-handler';
import { toWebRequest, writeWebResponse } from './node-http';

/** Options of {@link serveMcp}. */
export interface ServeMcpOptions extends McpHttpHandlerOptions {
  /** The port; 0 picks a free one. Default 3000. */
  port?: number;
  /** The interface to listen on. Default `127.0.0.1`. */
  host?: string;
  /** The endpoint path. Default `/mcp`. */
  path?: string;
  /**
   * Host names the `Host` and `Origin` headers may carry (DNS-rebinding protection); a
   * request outside them answers 403. Default: the localhost names when `host` is a
   * loopback address; otherwise `Host` is not checked and a sent `Origin` must be the
   * host the request was addressed to.
   */
  allowedHosts?: string[];
  /**
   * Host names the `Origin` header may carry, when browsers' origins differ from the
   * server's names (a web app on another domain). Default: `allowedHosts`.
   */
  allowedOrigins?: string[];
  /**
   * How long an idle keep-alive connection waits for its next request, in milliseconds
   * (default 5 s). It is advertised in `Keep-Alive: timeout=…`, and the connection is closed
   * 1 s after that, so a client that trusts the hint never reuses a closing connection.
   */
  keepAliveTimeoutMs?: number;
}

/** A running Streamable HTTP server. */
export interface McpHttpServer {
  /** The endpoint URL, e.g. `http://127.0.0.1:3000/mcp`. */
  readonly url: URL;
  readonly port: number;
  /** Stops listening and closes every session. */
  close(): Promise<void>;
}

/**
 * Serves `server` over Streamable HTTP on Node's HTTP server, to 2026-07-28 and 2025-era
 * clients alike (see {@link createMcpHttpHandler}). Requests with a foreign `Host` or a
 * cross-origin `Origin` are refused (403) before they reach MCP (see `allowedHosts`), and
 * `checkBearerToken` requires a bearer token.
 *
 * @example
 * ```ts source="../mcp.examples.ts#serveMcp"
 * const http = await serveMcp(server, { port: 3000 });
 * console.log(`MCP at ${http.url}`);
 * ```
 */
export async function serveMcp(
  server: McpToolServer,
  options: ServeMcpOptions = {},
): Promise<McpHttpServer> {
  const host = options.host ?? '127.0.0.1';
  const path = (options.path ?? '/mcp').replace(/\/+$/, '') || '/';
  const guard = createHttpGuard({
    host,
    allowedHosts: options.allowedHosts,
    allowedOrigins: options.allowedOrigins,
  });
  const handler = createMcpHttpHandler(server, options);

  const http = createServer((nodeRequest, nodeResponse) => {
    const answer = async (): Promise<Response> => {
      const target = parseTarget(nodeRequest.url);
      if (!target.ok) return refusalResponse(target.refusal);
      const refused = guard(nodeRequest);
      if (refused !== undefined) return refused;
      if (target.path !== path) return new Response('Not found', { status: 404 });
      const request = toWebRequest(nodeRequest, nodeResponse);
      if (request === undefined)
        return refusalResponse(refuse('invalid_target', 'The request target is not a URL.'));
      return handler.fetch(request);
    };
    answer()
      .catch((error: unknown) => {
        options.onError?.(error instanceof Error ? error : new Error(String(error)));
        return Response.json(
          { jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id: null },
          { status: 500 },
        );
      })
      .then((response) => writeWebResponse(response, nodeResponse))
      .catch(() => nodeResponse.destroy());
  });

  // node:http closes an idle connection 1 s after the timeout it advertises.
  http.keepAliveTimeout = options.keepAliveTimeoutMs ?? 5_000;
  await new Promise<void>((resolve, reject) => {
    http.once('error', (cause) =>
      reject(
        new McpAdapterError({
          code: 'adapter_error',
          message: `Cannot listen on ${host}:${options.port ?? 3000}: ${cause.message}`,
          cause,
        }),
      ),
    );
    http.listen(options.port ?? 3000, host, resolve);
  });
  const { port } = http.address() as AddressInfo;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: new URL(`http://${urlHost}:${port}${path}`),
    port,
    async close() {
      await handler.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
