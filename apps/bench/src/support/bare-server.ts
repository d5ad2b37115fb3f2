import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running bare HTTP server. */
export interface BareServer {
  url: string;
  close(): Promise<void>;
}

/**
 * The baseline of row 5: plain `node:http` on 127.0.0.1 that reads each request's body,
 * then answers 200 with the same fixed JSON text — no parsing, validation or storage.
 */
export async function startBareServer(json: string): Promise<BareServer> {
  const body = Buffer.from(json);
  const server: Server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, {
        'content-type': 'application/json',
        'content-length': body.length,
      });
      response.end(body);
    });
  });
  return listenOnLoopback(server);
}

/**
 * Starts `server` on 127.0.0.1 at a free port: its URL, and a close that ends its open
 * connections first.
 */
export async function listenOnLoopback(server: Server): Promise<BareServer> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
