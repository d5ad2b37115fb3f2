import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type CorpusTarget,
  exchangeRaw,
  hostileCorpus,
  idleClose,
  outcomeProblems,
  probeKeepAlive,
  rawRequest,
  type ServerProcess,
  startServerProcess,
} from '@mtpx/http-guard/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type InspectorServer, serveInspector } from './inspector-server';

// Issue 23: the shared hostile corpus against `mtpx-inspector serve`, a real process. After
// each request the process must be alive and answer /api/health.
const cli = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

describe('mtpx-inspector serve against the hostile corpus', () => {
  let server: ServerProcess;
  let target: CorpusTarget;

  beforeAll(async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'inspector-hostile-'));
    server = await startServerProcess(
      [cli, 'serve', '--data', dataDir, '--port', '0'],
      /Inspector on http:\/\/[^\s]+:(\d+)/,
    );
    target = { host: `127.0.0.1:${server.port}`, postPath: '/api/runs', getPath: '/api/runs' };
  });

  afterAll(async () => {
    await server?.stop();
  });

  it.each(hostileCorpus.map((request) => [request.name, request] as const))(
    '%s: a 4xx, and the process still answers',
    async (_name, request) => {
      const outcome = await exchangeRaw(server.port, request.bytes(target), request);
      expect(outcomeProblems(request, outcome)).toEqual([]);
      expect(server.alive(), server.output()).toBe(true);
      const health = await exchangeRaw(
        server.port,
        rawRequest('GET', '/api/health', { Host: target.host }),
      );
      expect(health.statuses, health.text).toEqual([200]);
    },
  );
});

// Issue 23: an idle connection is closed no earlier than 1 s after the advertised
// `Keep-Alive: timeout` (node:http's rule), so undici trusting the hint never fails.
describe('the Inspector keep-alive', () => {
  let inspector: InspectorServer;

  beforeAll(async () => {
    inspector = await serveInspector({
      dataDir: await mkdtemp(join(tmpdir(), 'inspector-keep-alive-')),
      port: 0,
    });
    inspector.server.keepAliveTimeout = 1_000;
  });

  afterAll(async () => {
    await inspector?.close();
  });

  it('closes an idle connection no earlier than 1 s after the advertised timeout', async () => {
    const { advertisedSeconds, closedAfterMs } = await idleClose(
      inspector.port,
      rawRequest('GET', '/api/health', { Host: `127.0.0.1:${inspector.port}` }, '', {
        keepAlive: true,
      }),
    );
    expect(advertisedSeconds).toBe(1);
    // 1 s after the hint (node:http's timers may fire a few ms early against this clock).
    expect(closedAfterMs).toBeGreaterThanOrEqual(1_950);
  });

  it.each([false, true])(
    'serves every request reused at 0.9× to 1.1× of the advertised timeout (client loop busy: %s)',
    async (busy) => {
      const report = await probeKeepAlive({
        url: `${inspector.url}/api/health`,
        advertisedMs: 1_000,
        clients: 40,
        rounds: 3,
        busy,
        accept: (status) => status === 200,
      });
      expect(report.requests).toBe(160);
      expect(report.failures).toEqual([]);
      // A reuse sent too late to test anything (a starved machine) is not the server's doing.
      expect(report.late.length, report.late.join('; ')).toBeLessThan(report.requests / 4);
    },
  );
});
