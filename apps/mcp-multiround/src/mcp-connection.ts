import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { CliError } from '@mtpx/example-kit';
import { type McpClientEra, mcpClientOptions, serveMcp } from '@mtpx/mcp';
import { type TrafficEvent, watchTraffic } from './protocol-traffic';
import { createRestaurantServer } from './restaurant-server';

/** Where the restaurant's server runs and how the client reaches it. */
export type ServerChoice =
  /** Streamable HTTP: started in this process, or a running one at `url`. */
  | { transport: 'http'; url?: URL | undefined }
  /** stdio: the server is spawned as a child process, as MCP hosts do. */
  | { transport: 'stdio' };

/** A connected MCP client. */
export interface RestaurantConnection {
  client: Client;
  /** One line saying where the server is. */
  description: string;
  close(): Promise<void>;
}

/** The standalone server entry, spawned for stdio. */
const SERVER_MAIN = fileURLToPath(new URL('./server-main.ts', import.meta.url));

/**
 * Connects an MCP client of `era` to the restaurant's server (starting the server when
 * this process serves it), declaring form elicitation, with its transport watched so the
 * terminal can show every round on the wire.
 */
export async function connectRestaurant(options: {
  era: McpClientEra;
  server: ServerChoice;
  onTraffic: (event: TrafficEvent) => void;
}): Promise<RestaurantConnection> {
  const client = new Client(
    { name: 'mcp-multiround', version: '1.0.0' },
    mcpClientOptions({ era: options.era, elicit: true }),
  );
  const closers: (() => Promise<void>)[] = [];
  let description: string;
  let transport: StreamableHTTPClientTransport | StdioClientTransport;

  if (options.server.transport === 'stdio') {
    // The child runs the way this process runs (tsx's loader flags included).
    transport = new StdioClientTransport({
      command: process.execPath,
      args: [...process.execArgv, SERVER_MAIN, '--stdio'],
      stderr: 'inherit',
    });
    description = `MCP server "restaurant" over stdio (a child process: ${SERVER_MAIN.split('/').slice(-2).join('/')})`;
  } else if (options.server.url !== undefined) {
    transport = new StreamableHTTPClientTransport(options.server.url);
    description = `MCP server over Streamable HTTP at ${options.server.url}`;
  } else {
    const http = await serveMcp(createRestaurantServer(), { port: 0 });
    closers.push(() => http.close());
    transport = new StreamableHTTPClientTransport(http.url);
    description = `MCP server "restaurant" over Streamable HTTP at ${http.url} (in this process)`;
  }

  try {
    await client.connect(watchTraffic(transport, options.onTraffic));
  } catch (error) {
    for (const close of closers) await close();
    const where = options.server.transport === 'http' ? String(options.server.url ?? '') : 'stdio';
    throw new CliError(
      `Cannot connect to the MCP server (${where}): ${error instanceof Error ? error.message : String(error)}`,
      { exitCode: 1, cause: error },
    );
  }
  return {
    client,
    description,
    close: async () => {
      await client.close();
      for (const close of closers) await close();
    },
  };
}
