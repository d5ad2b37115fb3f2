import { CliError, parseFlags } from '@mtpx/example-kit';

/** What the standalone server's command line can set. */
export interface ServerCliOptions {
  /** Streamable HTTP on `host:port`; stdio (what an MCP client spawns) otherwise. */
  transport: 'stdio' | 'http';
  /** The HTTP port; 0 picks a free one. */
  port: number;
  /** The HTTP host: loopback unless told otherwise. */
  host: string;
  help: boolean;
}

/** The text `pnpm -C apps/mcp-multiround server --help` prints. */
export const SERVER_HELP = `mcp-multiround server: the restaurant's MCP server on its own, for any MCP client

Usage: pnpm -C apps/mcp-multiround server [options]

  --stdio              MCP over stdin and stdout (the default: what a client spawns)
  --http               Streamable HTTP instead, at http://HOST:PORT/mcp
  --port N             the HTTP port, 0 to 65535; 0 picks a free one (default 3000)
  --host HOST          the HTTP host (default 127.0.0.1: this machine only)
  -h, --help           this text

Then: pnpm -C apps/mcp-multiround start --name Ada --server http://127.0.0.1:3000/mcp`;

/**
 * Parses the server's command line (a leading `--`, as pnpm may pass it, is ignored). A
 * wrong flag or value is a {@link CliError}: one line, exit code 2.
 */
export function parseServerCliOptions(argv: readonly string[]): ServerCliOptions {
  const { values } = parseFlags(argv, {
    options: {
      http: { type: 'boolean' },
      stdio: { type: 'boolean' },
      port: { type: 'string' },
      host: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.http && values.stdio) throw new CliError('Pass --http or --stdio, not both.');
  const http = values.http === true;
  if (!http && (values.port !== undefined || values.host !== undefined)) {
    throw new CliError('--port and --host are for --http: stdio has neither.');
  }
  return {
    transport: http ? 'http' : 'stdio',
    port: values.port === undefined ? 3000 : portFlag(values.port),
    host: values.host ?? '127.0.0.1',
    help: values.help === true,
  };
}

function portFlag(value: string): number {
  const port = Number(value);
  if (/^\d+$/.test(value) && port <= 65_535) return port;
  throw new CliError(`--port must be a whole number from 0 to 65535, not "${value}".`);
}
