import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio';
import type { McpToolServer } from './mcp-tool-server';

/** Options of {@link serveMcpStdio}. */
export interface ServeMcpStdioOptions {
  /** Where requests come from. Default `process.stdin`. */
  stdin?: Readable;
  /** Where responses go. Default `process.stdout` (log to stderr, never to stdout). */
  stdout?: Writable;
  /** Out-of-band errors (reporting only). */
  onError?: (error: Error) => void;
}

/** A connection served over stdio. */
export interface McpStdioServer {
  /** Ends the connection. */
  close(): Promise<void>;
}

/**
 * Serves `server` over stdio. The client's opening decides the era for the connection:
 * a 2026-07-28 client gets `input_required` results, a 2025-era client (`initialize`) gets
 * the same rounds as server-to-client requests on the pipe.
 *
 * @example
 * ```ts source="../mcp.examples.ts#serveMcpStdio"
 * serveMcpStdio(server);
 * ```
 */
export function serveMcpStdio(
  server: McpToolServer,
  options: ServeMcpStdioOptions = {},
): McpStdioServer {
  const transport = new StdioServerTransport(options.stdin, options.stdout);
  return serveStdio((context) => server.createSdkServer(context.era), {
    transport,
    ...(options.onError !== undefined && { onerror: options.onError }),
  });
}
