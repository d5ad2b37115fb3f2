import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type CorpusTarget,
  exchangeRaw,
  hostileCorpus,
  outcomeProblems,
  rawRequest,
  type ServerProcess,
  startServerProcess,
} from '@mtpx/http-guard/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliPath } from './__fixtures__/spawn-cli';

// Issue 23: the shared hostile corpus against the real `mpl serve` process, with each HTTP
// layer. After each request the process must be alive and answer a normal request.
describe.each(['node', 'fast'] as const)('mpl serve --http-layer %s', (httpLayer) => {
  let server: ServerProcess;
  let target: CorpusTarget;

  beforeAll(async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'mpl-hostile-process-'));
    server = await startServerProcess(
      [cliPath, 'serve', '--port', '0', '--data', dataDir, '--http-layer', httpLayer],
      /listening on http:\/\/[^\s]+:(\d+)/,
    );
    target = {
      host: `127.0.0.1:${server.port}`,
      postPath: '/call',
      getPath: '/health',
      postHeaders: { 'X-MPL-SType': 'org.agent.TaskPlan.v1' },
    };
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
        rawRequest('GET', '/health', { Host: target.host }),
      );
      expect(health.statuses, health.text).toEqual([200]);
    },
  );
});
