// The restaurant's MCP server on its own, for any MCP client (or this app's `--server URL`).
//   pnpm -C apps/mcp-multiround server                   stdio (what a client spawns)
//   pnpm -C apps/mcp-multiround server --http         Streamable HTTP on 127.0.0.1:3000/mcp
//   pnpm -C apps/mcp-multiround server --http --port 0
import { parseArgs } from 'node:util';
import { serveMcp, serveMcpStdio } from '@mtpx/mcp';
import { createRestaurantServer } from './restaurant-server';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((argument, index) => index > 0 || argument !== '--'),
  options: {
    http: { type: 'boolean' },
    stdio: { type: 'boolean' },
    port: { type: 'string' },
    host: { type: 'string' },
  },
});

// stdout belongs to the protocol over stdio: everything else goes to stderr.
const server = createRestaurantServer({
  onError: (error) => process.stderr.write(`restaurant server: ${error.message}\n`),
});

if (values.http) {
  const http = await serveMcp(server, {
    port: values.port === undefined ? 3000 : Number(values.port),
    host: values.host ?? '127.0.0.1',
  });
  process.stdout.write(`restaurant MCP server on Streamable HTTP at ${http.url}\n`);
  const stop = () => {
    void http.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} else {
  serveMcpStdio(server);
}
