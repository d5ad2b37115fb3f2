// The restaurant's MCP server on its own, for any MCP client (or this app's `--server URL`).
//   pnpm -C apps/mcp-multiround server                   stdio (what a client spawns)
//   pnpm -C apps/mcp-multiround server --http         Streamable HTTP on 127.0.0.1:3000/mcp
//   pnpm -C apps/mcp-multiround server --http --port 0
import { runMain } from '@mtpx/example-kit';
import { serveMcp, serveMcpStdio } from '@mtpx/mcp';
import { createRestaurantServer } from './restaurant-server';
import { parseServerCliOptions, SERVER_HELP } from './server-cli-options';

async function main(): Promise<number> {
  const options = parseServerCliOptions(process.argv.slice(2));
  if (options.help) {
    process.stdout.write(`${SERVER_HELP}\n`);
    return 0;
  }
  // stdout belongs to the protocol over stdio: everything else goes to stderr.
  const server = createRestaurantServer({
    onError: (error) => process.stderr.write(`restaurant server: ${error.message}\n`),
  });
  if (options.transport === 'stdio') {
    serveMcpStdio(server);
    return 0;
  }
  const http = await serveMcp(server, { port: options.port, host: options.host });
  process.stdout.write(`restaurant MCP server on Streamable HTTP at ${http.url}\n`);
  const stop = () => {
    void http.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return 0;
}

runMain('mcp-multiround server', main);
