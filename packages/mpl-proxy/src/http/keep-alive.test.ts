import { idleClose, probeKeepAlive, rawRequest } from '@mtpx/http-guard/test-support';
import { InMemoryProvenanceStore } from '@mtpx/mpl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningProxy } from '../proxy-options';
import { startProxy } from '../server';

// Issue 23: an idle connection is closed no earlier than 1 s after the advertised
// `Keep-Alive: timeout`, so undici trusting the hint to the millisecond never reuses a
// connection as the proxy closes it (`other side closed`). Both HTTP layers.
describe.each(['node', 'fast'] as const)('the %s HTTP layer', (httpLayer) => {
  let proxy: RunningProxy;

  beforeAll(async () => {
    proxy = await startProxy({
      port: 0,
      store: new InMemoryProvenanceStore(),
      idleTimeoutMs: 1_000,
      // Connections are checked every 500 ms (a quarter of it): a close due at the hint comes
      // within 500 ms of it. Not shorter: a head that a busy machine delivers late must not be
      // answered 408 (400 ms did, at a load of 17 on 2 cores).
      headersTimeoutMs: 2_000,
      httpLayer,
    });
  });

  afterAll(async () => {
    await proxy?.close();
  });

  it('closes an idle connection no earlier than 1 s after the advertised timeout', async () => {
    const { advertisedSeconds, closedAfterMs } = await idleClose(
      proxy.port,
      rawRequest('GET', '/health', { Host: `127.0.0.1:${proxy.port}` }, '', { keepAlive: true }),
    );
    expect(advertisedSeconds).toBe(1);
    // 1 s after the hint (node:http's timers may fire a few ms early against this clock).
    expect(closedAfterMs).toBeGreaterThanOrEqual(1_950);
  });

  it.each([false, true])(
    'serves every request reused at 0.9× to 1.1× of the advertised timeout (client loop busy: %s)',
    async (busy) => {
      const report = await probeKeepAlive({
        url: `${proxy.url}/health`,
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
