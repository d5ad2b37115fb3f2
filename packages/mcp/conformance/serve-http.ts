/**
 * Serves the conformance fixture over Streamable HTTP on 127.0.0.1 and prints its URL on
 * stdout (`.ci/mcp-conformance.sh` runs the suite and the Inspector against it).
 *
 *   node --import tsx packages/mcp/conformance/serve-http.ts [port]
 */
import { serveMcp } from '@mtpx/mcp';
import { server } from './fixture-server';

const http = await serveMcp(server, { port: Number(process.argv[2] ?? 0) });
process.stdout.write(`${http.url.href}\n`);
const stop = () => void http.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
