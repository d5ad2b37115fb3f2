import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoadProcess } from './load-client';

let loader: LoadProcess;
const servers: Server[] = [];

/** A server that holds every request until `answering()` says to answer. */
async function serve(answering: () => boolean, onConnectionClosed = () => {}): Promise<string> {
  const server = createServer((request, response) => {
    request.resume();
    if (answering()) response.end('{"ok":true}');
  });
  server.on('connection', (socket) => socket.once('close', onConnectionClosed));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

beforeAll(async () => {
  loader = await LoadProcess.start();
});

afterAll(async () => {
  await loader?.stop();
  for (const server of servers) {
    server.closeAllConnections();
    server.close();
  }
});

const request = { method: 'POST', headers: {}, body: '{}', connections: 1 } as const;

describe('LoadProcess.load', () => {
  it('runs a window that saw no answer again, twice as long, and reports that run', async () => {
    // Nothing is answered until autocannon ends its first window (it closes its connection).
    let answer = false;
    const url = await serve(
      () => answer,
      () => {
        answer = true;
      },
    );
    const report = await loader.load({ ...request, url, durationSeconds: 0.2 });
    expect(report.completed).toBeGreaterThan(0);
    expect(report.non2xx).toBe(0);
    expect(report.errors).toBe(0);
  });

  it('gives up after four longer windows that saw no answer, saying so', async () => {
    const url = await serve(() => false);
    await expect(loader.load({ ...request, url, durationSeconds: 0.02 })).rejects.toThrow(
      /: 0 answers 2xx, 0 not, 0 errors \(a 0\.32 s window, after 4 shorter ones saw no answer\)$/,
    );
  });
});
