import { parseArgs } from 'node:util';
import { McpAdapterError } from '../errors';
import { serveMcp } from '../http/serve-mcp';
import { isMcpToolServer, type McpToolServer } from '../server/mcp-tool-server';
import { serveMcpStdio } from '../server/serve-stdio';
import { VERSION } from '../version';
import { importServerModule } from './module-loader';

const usage = `Usage: mtpx-mcp <module> [--http] [--port 3000] [--host 127.0.0.1] [--path /mcp]

Serves the MCP server a module exports, over stdio (default) or Streamable HTTP (--http),
to 2026-07-28 and 2025-era clients alike. A .ts module is loaded through the project's
tsx when Node cannot load it by itself. The module exports either
  - a server made by createMcpServer(...), as \`default\` or \`server\`, or
  - \`tools\` (an array of tools or a ToolRegistry), and optionally \`prompts\`,
    \`resources\`, \`name\`, \`version\` and \`stateKey\`.`;

/** Where the CLI writes (stdout is the MCP channel under stdio, so messages go to stderr). */
export interface CliIo {
  stderr: (line: string) => void;
}

/** What a running CLI can be stopped with. */
export interface RunningCli {
  close(): Promise<void>;
}

/** Turns a module's exports into a server; set by the package entry to build from `tools`. */
export type ModuleServerBuilder = (exports: Record<string, unknown>) => McpToolServer | undefined;

/**
 * Runs `mtpx-mcp`: loads the module, serves it, and resolves once it is serving.
 * Rejects with an McpAdapterError on bad arguments or a module without a server.
 */
export async function runCli(
  argv: readonly string[],
  io: CliIo,
  buildFromExports?: ModuleServerBuilder,
): Promise<RunningCli | undefined> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      http: { type: 'boolean', default: false },
      port: { type: 'string', default: '3000' },
      host: { type: 'string', default: '127.0.0.1' },
      path: { type: 'string', default: '/mcp' },
      help: { type: 'boolean', short: 'h', default: false },
      version: { type: 'boolean', short: 'v', default: false },
    },
  });
  if (values.help) {
    io.stderr(usage);
    return undefined;
  }
  if (values.version) {
    io.stderr(VERSION);
    return undefined;
  }
  const modulePath = positionals[0];
  if (modulePath === undefined) throw cliError(`Missing <module>.\n\n${usage}`);

  const exports = await importServerModule(modulePath);
  const server =
    [exports.default, exports.server].find(isMcpToolServer) ?? buildFromExports?.(exports);
  if (server === undefined) {
    throw cliError(`${modulePath} exports no MCP server and no \`tools\`.\n\n${usage}`);
  }

  if (!values.http) {
    const stdio = serveMcpStdio(server, { onError: (error) => io.stderr(error.message) });
    io.stderr(`mtpx-mcp: serving ${server.name} (${toolCount(server)}) over stdio`);
    return stdio;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw cliError(`--port must be a port number, got ${values.port}.`);
  }
  const http = await serveMcp(server, {
    port,
    host: values.host,
    path: values.path,
    onError: (error) => io.stderr(error.message),
  });
  io.stderr(`mtpx-mcp: serving ${server.name} (${toolCount(server)}) at ${http.url}`);
  return http;
}

/** `1 tool`, `7 tools`. */
function toolCount(server: McpToolServer): string {
  const count = server.toolNames.length;
  return `${count} tool${count === 1 ? '' : 's'}`;
}

function cliError(message: string): McpAdapterError {
  return new McpAdapterError({ code: 'adapter_error', message });
}
