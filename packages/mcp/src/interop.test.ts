import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { StdioClientTransport as LegacyStdioTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpClientOptions } from './client/mcp-client';
import { createMcpHttpHandler } from './http/http-handler';
import { type McpHttpServer, serveMcp } from './http/serve-mcp';
import {
  connectLegacyClient,
  connectModernClient,
  firstText,
  legacyClientWith,
  type ScriptedHandlers,
} from './test-support/clients';
import { testServer } from './test-support/server';

const packageDirectory = fileURLToPath(new URL('..', import.meta.url));
/**
 * Spawning the bin from source (tsx) takes seconds on a loaded machine, and the v2 client
 * spawns it twice over stdio (a short-lived sibling answers its `server/discover` probe).
 */
const SPAWN_TIMEOUT_MS = 60_000;
/** `mtpx-mcp src/test-support/stdio-module.ts`, run from source. */
const stdioServer = {
  command: process.execPath,
  args: ['--import', 'tsx', 'src/cli/bin.ts', 'src/test-support/stdio-module.ts'],
  cwd: packageDirectory,
  stderr: 'ignore' as const,
};

/** The user's answers, the same for every client. */
const user: ScriptedHandlers = {
  elicit: (params) => {
    const properties = Object.keys(
      ((params.requestedSchema as { properties?: object } | undefined)?.properties ?? {}) as object,
    );
    if (properties.includes('name')) return { action: 'accept', content: { name: 'Ada' } };
    if (properties.includes('date')) return { action: 'accept', content: { date: '2026-12-24' } };
    return { action: 'accept', content: { confirm: true } };
  },
};

const server = testServer();
let http: McpHttpServer;

beforeAll(async () => {
  http = await serveMcp(server, { port: 0 });
});
afterAll(async () => {
  await http.close();
});

/** Each client asks the same two tools; each must reach the same final answer. */
async function askBoth(client: {
  callTool: (params: { name: string; arguments: Record<string, unknown> }) => Promise<unknown>;
}) {
  const greeting = firstText(await client.callTool({ name: 'greet', arguments: {} }));
  const booking = await client.callTool({ name: 'book_table', arguments: { party: 4 } });
  return { greeting, booking: (booking as { structuredContent?: unknown }).structuredContent };
}

const expected = {
  greeting: 'Hello, Ada!',
  booking: { booked: true, party: 4, date: '2026-12-24' },
};

describe('one multi-round tool definition, both protocol eras', () => {
  it('completes for the v2 client pinned to 2026-07-28 over HTTP (input_required rounds)', async () => {
    const client = await connectModernClient(http.url, user);
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    expect(await askBoth(client)).toEqual(expected);
    expect(client.seen.map((request) => request.method)).toEqual([
      'elicitation/create',
      'elicitation/create',
      'elicitation/create',
    ]);
    await client.close();
  });

  it('completes for the v1 client (2025 era) over HTTP (real server-to-client requests)', async () => {
    const client = await connectLegacyClient(http.url, user);
    expect(await askBoth(client)).toEqual(expected);
    expect(client.seen).toHaveLength(3);
    await client.close();
  });

  it(
    'completes for the v1 client (2025 era) over stdio, spawning mtpx-mcp',
    async () => {
      const client = legacyClientWith(user);
      await client.connect(new LegacyStdioTransport(stdioServer));
      expect(await askBoth(client)).toEqual(expected);
      await client.close();
    },
    SPAWN_TIMEOUT_MS,
  );

  it(
    'completes for the v2 client pinned to 2026-07-28 over stdio',
    async () => {
      const client = new Client(
        { name: 'stdio-modern', version: '1.0.0' },
        mcpClientOptions({ elicit: true }),
      );
      client.setRequestHandler(
        'elicitation/create',
        async (request) =>
          (await user.elicit?.(request.params as Record<string, unknown>)) as never,
      );
      await client.connect(new StdioClientTransport(stdioServer));
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      expect(await askBoth(client)).toEqual(expected);
      await client.close();
    },
    SPAWN_TIMEOUT_MS,
  );

  it('completes for the v2 client pinned to 2026-07-28 through an in-process fetch', async () => {
    const handler = createMcpHttpHandler(server);
    const client = await connectModernClient(new URL('http://in-process/mcp'), user, {
      fetch: (input, init) => handler.fetch(new Request(input, init)),
    });
    expect(await askBoth(client)).toEqual(expected);
    await client.close();
    await handler.close();
  });

  it('keeps one session per 2025-era client and closes it with the client', async () => {
    const handler = createMcpHttpHandler(server);
    const fetchInProcess = (input: string | URL | Request, init?: RequestInit) =>
      handler.fetch(new Request(input, init));
    const { Client: LegacyClient } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { StreamableHTTPClientTransport } = await import(
      '@modelcontextprotocol/sdk/client/streamableHttp.js'
    );
    const client = new LegacyClient({ name: 'legacy', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL('http://in-process/mcp'), {
      fetch: fetchInProcess,
    });
    await client.connect(transport);
    expect(handler.sessionCount).toBe(1);
    await transport.terminateSession();
    expect(handler.sessionCount).toBe(0);
    await client.close();
    await handler.close();
  });
});
