import { closeSync, openSync, writeSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import type { LogSyncStats } from '@mtpx/mpl-proxy';
import { WalSync } from '@mtpx/mpl-proxy/internal';
import { listenOnLoopback } from './bare-server';

/** A running bare server whose answers wait for the disk. */
export interface BareSyncedServer {
  url: string;
  /** Its syncs so far: how many, for how many requests, how long. */
  readonly syncStats: LogSyncStats;
  close(): Promise<void>;
}

/**
 * The synced baseline of row 5: plain `node:http` on 127.0.0.1 that appends each request's
 * body to a file in `folder`, then answers 200 with the fixed JSON text once an
 * `fdatasync` of that file begun after the append has completed — the proxy's own group
 * commit (`WalSync`, the class the `synchronous=full` store uses), with no parsing,
 * validation, hashing or SQLite. What a server that only waits for the disk reaches, and
 * so the share of its sync ceiling any server answering after a shared sync can reach.
 */
export async function startBareSyncedServer(
  json: string,
  folder: string,
): Promise<BareSyncedServer> {
  const body = Buffer.from(json);
  const path = join(folder, 'bare-synced.log');
  const fd = openSync(path, 'w');
  const sync = new WalSync(path);
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      writeSync(fd, Buffer.concat(chunks));
      sync.durable().then(
        () => {
          response.writeHead(200, {
            'content-type': 'application/json',
            'content-length': body.length,
          });
          response.end(body);
        },
        (error: unknown) => {
          response.writeHead(500).end(String(error));
        },
      );
    });
  });
  const listening = await listenOnLoopback(server);
  return {
    url: listening.url,
    get syncStats() {
      return sync.stats;
    },
    close: async () => {
      await listening.close();
      await sync.close();
      closeSync(fd);
    },
  };
}
