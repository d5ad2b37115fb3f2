import { randomUUID } from 'node:crypto';
import {
  createMcpHandler,
  isInitializeRequest,
  isLegacyRequest,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import { safeParseJson } from '@mtpx/protocol';
import { listenToServerEvents, type McpToolServer } from '../server/mcp-tool-server';
import { type BearerTokenCheck, bearerTokenRefusal } from './http-guard';

/** Options of {@link createMcpHttpHandler}. */
export interface McpHttpHandlerOptions {
  /**
   * A 2025-era session with no request for this long is closed, in milliseconds.
   * Default 30 minutes.
   */
  sessionIdleMs?: number;
  /** Most 2025-era sessions open at once; a new one beyond it is refused (503). Default 1000. */
  maxSessions?: number;
  /**
   * Requires `Authorization: Bearer <token>` on every request, accepted when this returns
   * true; others answer 401 with a `WWW-Authenticate: Bearer` challenge. Default: none.
   */
  checkBearerToken?: BearerTokenCheck;
  /** Out-of-band errors (reporting only). */
  onError?: (error: Error) => void;
}

/** A web-standard HTTP handler serving MCP to both protocol eras. */
export interface McpHttpHandler {
  /** Answers one HTTP request (`POST`, and `GET` / `DELETE` for 2025-era sessions). */
  fetch(request: Request): Promise<Response>;
  /** The number of open 2025-era sessions. */
  readonly sessionCount: number;
  /** Closes every session and in-flight exchange. */
  close(): Promise<void>;
}

interface LegacySession {
  transport: WebStandardStreamableHTTPServerTransport;
  idleTimer: ReturnType<typeof setTimeout> | undefined;
}

/**
 * Serves `server` over Streamable HTTP to both eras on one endpoint: 2026-07-28 requests go
 * to the SDK's per-request modern handler (multi-round calls as `input_required` results);
 * 2025-era requests go to a session-keeping transport, so the SDK can replay those rounds
 * as real server-to-client requests (elicitation, sampling, roots) within the session.
 *
 * Mount `handler.fetch` on any fetch-style runtime, or use `serveMcp` for Node's HTTP server.
 *
 * @example
 * ```ts source="../mcp.examples.ts#createMcpHttpHandler"
 * const handler = createMcpHttpHandler(server);
 * const response = await handler.fetch(request);
 * ```
 */
export function createMcpHttpHandler(
  server: McpToolServer,
  options: McpHttpHandlerOptions = {},
): McpHttpHandler {
  const idleMs = options.sessionIdleMs ?? 30 * 60_000;
  const maxSessions = options.maxSessions ?? 1000;
  const modern = createMcpHandler((context) => server.createSdkServer(context.era), {
    legacy: 'reject',
    ...(options.onError !== undefined && { onerror: options.onError }),
  });
  const sessions = new Map<string, LegacySession>();
  // 2026-07-28 clients hear of changes on their `subscriptions/listen` streams.
  const stopForwarding = listenToServerEvents(server, (event) => modern.bus.publish(event));

  const touch = (id: string, session: LegacySession) => {
    if (session.idleTimer !== undefined) clearTimeout(session.idleTimer);
    session.idleTimer = setTimeout(() => void session.transport.close(), idleMs);
    session.idleTimer.unref?.();
    sessions.set(id, session);
  };

  async function openSession(request: Request): Promise<Response> {
    if (sessions.size >= maxSessions) {
      return jsonRpcError(503, -32000, 'Too many open sessions; try again later.');
    }
    const session: LegacySession = {
      transport: new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: randomUUID,
        onsessioninitialized: (id) => touch(id, session),
      }),
      idleTimer: undefined,
    };
    session.transport.onclose = () => {
      if (session.idleTimer !== undefined) clearTimeout(session.idleTimer);
      if (session.transport.sessionId !== undefined) sessions.delete(session.transport.sessionId);
    };
    await server.createSdkServer('legacy').connect(session.transport);
    return session.transport.handleRequest(request);
  }

  async function serveLegacy(request: Request): Promise<Response> {
    const sessionId = request.headers.get('mcp-session-id');
    if (sessionId !== null) {
      const session = sessions.get(sessionId);
      if (session === undefined) return jsonRpcError(404, -32001, 'Session not found');
      touch(sessionId, session);
      return session.transport.handleRequest(request);
    }
    if (request.method === 'POST') {
      const body = safeParseJson(await request.clone().text());
      if (body.ok && isInitializeRequest(body.value)) return openSession(request);
    }
    return jsonRpcError(400, -32000, 'Bad Request: no valid session; start with initialize.');
  }

  return {
    async fetch(request) {
      if (options.checkBearerToken !== undefined) {
        const refused = await bearerTokenRefusal(
          request,
          options.checkBearerToken,
          options.onError,
        );
        if (refused !== undefined) return refused;
      }
      return (await isLegacyRequest(request)) ? serveLegacy(request) : modern.fetch(request);
    },
    get sessionCount() {
      return sessions.size;
    },
    async close() {
      stopForwarding();
      const open = [...sessions.values()];
      sessions.clear();
      await Promise.all([modern.close(), ...open.map((session) => session.transport.close())]);
    },
  };
}

function jsonRpcError(status: number, code: number, message: string): Response {
  return Response.json({ jsonrpc: '2.0', error: { code, message }, id: null }, { status });
}
