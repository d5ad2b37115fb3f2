/**
 * Test support (not exported from the package): the real SDK clients of both eras, wired
 * with scripted elicitation / sampling / roots handlers, as the interop tests use them.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';

/** Scripted answers a test client gives to the server's input requests. */
export interface ScriptedHandlers {
  elicit?: (params: Record<string, unknown>) => unknown;
  sample?: (params: Record<string, unknown>) => unknown;
  roots?: () => unknown;
  /** Capabilities to declare without a scripted handler (one is installed later). */
  declare?: Array<'elicitation' | 'sampling' | 'roots'>;
}

/** Which requests the scripted client saw, in order. */
export interface SeenRequests {
  seen: Array<{ method: string; params: Record<string, unknown> }>;
}

function capabilitiesFor(handlers: ScriptedHandlers) {
  const declared = new Set(handlers.declare ?? []);
  return {
    ...((handlers.elicit !== undefined || declared.has('elicitation')) && {
      elicitation: { form: {}, url: {} },
    }),
    ...((handlers.sample !== undefined || declared.has('sampling')) && { sampling: {} }),
    ...((handlers.roots !== undefined || declared.has('roots')) && { roots: {} }),
  };
}

/** A v2 client pinned to MCP 2026-07-28, connected to `url`. */
export async function connectModernClient(
  url: URL,
  handlers: ScriptedHandlers = {},
  options: { fetch?: (input: string | URL, init?: RequestInit) => Promise<Response> } = {},
): Promise<Client & SeenRequests> {
  const client = Object.assign(
    new Client(
      { name: 'modern-test-client', version: '1.0.0' },
      {
        capabilities: capabilitiesFor(handlers),
        versionNegotiation: { mode: { pin: '2026-07-28' } },
      },
    ),
    { seen: [] as SeenRequests['seen'] },
  );
  const record = (method: string, params: unknown) =>
    client.seen.push({ method, params: (params ?? {}) as Record<string, unknown> });
  const { elicit, sample, roots } = handlers;
  if (elicit !== undefined) {
    client.setRequestHandler('elicitation/create', async (request) => {
      record('elicitation/create', request.params);
      return (await elicit(request.params as Record<string, unknown>)) as never;
    });
  }
  if (sample !== undefined) {
    client.setRequestHandler('sampling/createMessage', async (request) => {
      record('sampling/createMessage', request.params);
      return (await sample(request.params as Record<string, unknown>)) as never;
    });
  }
  if (roots !== undefined) {
    client.setRequestHandler('roots/list', async () => {
      record('roots/list', {});
      return (await roots()) as never;
    });
  }
  await client.connect(
    new StreamableHTTPClientTransport(url, options.fetch ? { fetch: options.fetch } : undefined),
  );
  return client;
}

/** A v1 (`@modelcontextprotocol/sdk`, 2025-era) client connected to `url` over HTTP. */
export async function connectLegacyClient(
  url: URL,
  handlers: ScriptedHandlers = {},
): Promise<LegacyClient & SeenRequests> {
  const client = legacyClientWith(handlers);
  await client.connect(new LegacyHttpTransport(url));
  return client;
}

/** A v1 client with the scripted handlers, not yet connected (for stdio tests). */
export function legacyClientWith(handlers: ScriptedHandlers): LegacyClient & SeenRequests {
  const client = Object.assign(
    new LegacyClient(
      { name: 'legacy-test-client', version: '1.0.0' },
      { capabilities: capabilitiesFor(handlers) },
    ),
    { seen: [] as SeenRequests['seen'] },
  );
  const record = (method: string, params: unknown) =>
    client.seen.push({ method, params: (params ?? {}) as Record<string, unknown> });
  const { elicit, sample, roots } = handlers;
  if (elicit !== undefined) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      record('elicitation/create', request.params);
      return (await elicit(request.params as Record<string, unknown>)) as never;
    });
  }
  if (sample !== undefined) {
    client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
      record('sampling/createMessage', request.params);
      return (await sample(request.params as Record<string, unknown>)) as never;
    });
  }
  if (roots !== undefined) {
    client.setRequestHandler(ListRootsRequestSchema, async () => {
      record('roots/list', {});
      return (await roots()) as never;
    });
  }
  return client;
}

/** The text of a tool result's first text block. */
export function firstText(result: unknown): string | undefined {
  const content = (result as { content?: Array<{ type: string; text?: string }> }).content ?? [];
  return content.find((block) => block.type === 'text')?.text;
}

/** One raw JSON-RPC exchange with a 2026-07-28 endpoint, as a hand-written client sends it. */
export interface RawExchange {
  status: number;
  body: {
    result?: Record<string, unknown> & {
      resultType?: string;
      inputRequests?: Record<string, { method: string; params?: Record<string, unknown> }>;
      requestState?: string;
    };
    error?: { code: number; message: string; data?: Record<string, unknown> };
  };
}

let rawId = 0;

/**
 * Posts one modern request (the per-request `_meta` envelope plus the `MCP-Protocol-Version`,
 * `Mcp-Method` and `Mcp-Name` headers the 2026-07-28 HTTP binding requires).
 */
export async function rawModernRequest(
  fetchLike: (request: Request) => Promise<Response>,
  method: string,
  params: Record<string, unknown>,
  options: { capabilities?: Record<string, unknown>; protocolVersion?: string } = {},
): Promise<RawExchange> {
  const protocolVersion = options.protocolVersion ?? '2026-07-28';
  const name = typeof params.name === 'string' ? params.name : (params.uri as string | undefined);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': protocolVersion,
    'mcp-method': method,
    ...(name !== undefined && { 'mcp-name': name }),
  };
  rawId += 1;
  const body = {
    jsonrpc: '2.0',
    id: rawId,
    method,
    params: {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': protocolVersion,
        'io.modelcontextprotocol/clientInfo': { name: 'raw-test-client', version: '1.0.0' },
        'io.modelcontextprotocol/clientCapabilities': options.capabilities ?? {},
      },
    },
  };
  const response = await fetchLike(
    new Request('http://127.0.0.1/mcp', { method: 'POST', headers, body: JSON.stringify(body) }),
  );
  return { status: response.status, body: (await response.json()) as RawExchange['body'] };
}
