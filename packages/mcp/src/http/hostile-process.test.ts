import { fileURLToPath } from 'node:url';
import {
  type CorpusTarget,
  crashingRequests,
  exchangeRaw,
  hostileCorpus,
  outcomeProblems,
  rawRequest,
  type ServerProcess,
  startServerProcess,
} from '@mtpx/http-guard/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Issue 23: the shared hostile corpus (the twelve requests that once ended the process
// first) against `mtpx-mcp --http`, a real process running serveMcp. After each request
// the process must be alive and answer an MCP initialize.
const bin = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));
const module = fileURLToPath(new URL('../test-support/one-tool-module.ts', import.meta.url));

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'raw', version: '1.0.0' },
  },
});

describe('mtpx-mcp --http against the hostile corpus', () => {
  let server: ServerProcess;
  let target: CorpusTarget;

  beforeAll(async () => {
    server = await startServerProcess(
      [bin, module, '--http', '--port', '0'],
      /at http:\/\/127\.0\.0\.1:(\d+)\/mcp/,
    );
    target = { host: `127.0.0.1:${server.port}`, postPath: '/mcp', getPath: '/mcp' };
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('the corpus starts with the twelve requests of issue 23', () => {
    expect(crashingRequests).toHaveLength(12);
    expect(hostileCorpus.slice(0, 12)).toEqual(crashingRequests);
  });

  it.each(hostileCorpus.map((request) => [request.name, request] as const))(
    '%s: a 4xx, and the process still answers',
    async (_name, request) => {
      const outcome = await exchangeRaw(server.port, request.bytes(target), request);
      expect(outcomeProblems(request, outcome)).toEqual([]);
      expect(server.alive(), server.output()).toBe(true);
      const normal = await exchangeRaw(
        server.port,
        rawRequest(
          'POST',
          '/mcp',
          {
            Host: target.host,
            'Content-Type': 'application/json',
            Accept: 'application/json, text/event-stream',
          },
          initialize,
        ),
      );
      expect(normal.statuses, normal.text).toEqual([200]);
    },
  );
});
