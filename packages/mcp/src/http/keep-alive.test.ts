import { idleClose, probeKeepAlive, rawRequest } from '@mtpx/http-guard/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testServer } from '../test-support/server';
import { type McpHttpServer, serveMcp } from './serve-mcp';

// Issue 23: an idle connection is closed no earlier than 1 s after the advertised
// `Keep-Alive: timeout`, so undici trusting the hint never reuses a closing connection.
const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });

describe('serveMcp keep-alive', () => {
  let http: McpHttpServer;

  beforeAll(async () => {
    http = await serveMcp(testServer(), { port: 0, keepAliveTimeoutMs: 1_000 });
  });

  afterAll(async () => {
    await http?.close();
  });

  it('closes an idle connection no earlier than 1 s after the advertised timeout', async () => {
    const { advertisedSeconds, closedAfterMs } = await idleClose(
      http.port,
      rawRequest(
        'POST',
        '/mcp',
        { Host: `127.0.0.1:${http.port}`, 'Content-Type': 'application/json' },
        ping,
        { keepAlive: true },
      ),
    );
    expect(advertisedSeconds).toBe(1);
    // 1 s after the hint (node:http's timers may fire a few ms early against this clock).
    expect(closedAfterMs).toBeGreaterThanOrEqual(1_950);
  });

  it.each([false, true])(
    'serves every request reused at 0.9× to 1.1× of the advertised timeout (client loop busy: %s)',
    async (busy) => {
      const report = await probeKeepAlive({
        url: http.url.href,
        init: () => ({
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
          body: ping,
        }),
        advertisedMs: 1_000,
        clients: 40,
        rounds: 3,
        busy,
      });
      expect(report.requests).toBe(160);
      expect(report.failures).toEqual([]);
      // A reuse sent too late to test anything (a starved machine) is not the server's doing.
      expect(report.late.length, report.late.join('; ')).toBeLessThan(report.requests / 4);
    },
  );
});
