import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type CorpusTarget,
  exchangeRaw,
  hostileCorpus,
  outcomeProblems,
} from '@mtpx/http-guard/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerOf, open, type RawAnswer, rawRequest, sendRaw } from './__fixtures__/raw-http';
import { readJson } from './__fixtures__/spawn-cli';
import { planId, reasoning, taskPlan } from './__fixtures__/tutorial';
import type { RunningProxy } from './proxy-options';
import { startProxy } from './server';

// The catalogue of hostile requests of issue 14, sent on raw sockets: every answer is a
// 4xx (never a 500, never a hang), and afterwards the proxy still answers and its chains verify.
describe.each(['node', 'fast'] as const)('the %s HTTP layer', (httpLayer) => {
  let proxy: RunningProxy;
  let port: number;
  const host = () => `127.0.0.1:${port}`;
  const json = (extra: Record<string, string> = {}) => ({
    Host: host(),
    'Content-Type': 'application/json',
    'X-MPL-SType': 'org.agent.TaskPlan.v1',
    ...extra,
  });
  const planBody = JSON.stringify({ method: 'agent.plan', payload: taskPlan });

  beforeAll(async () => {
    proxy = await startProxy({
      port: 0,
      httpLayer,
      dataDir: await mkdtemp(join(tmpdir(), 'mpl-hostile-')),
      maxBodyBytes: 64 * 1024,
      headersTimeoutMs: 800,
      requestTimeoutMs: 1_500,
      idleTimeoutMs: 1_000,
      allowedOrigins: ['https://app.example'],
    });
    port = proxy.port;
    const first = await fetch(`${proxy.url}/call`, {
      method: 'POST',
      headers: json(),
      body: planBody,
    });
    expect(first.status).toBe(200);
  });

  afterAll(async () => {
    await proxy?.close();
  });

  function expectClientError(answer: RawAnswer, status?: number) {
    expect(answer.status, answer.text.slice(0, 300)).not.toBeNull();
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    if (status !== undefined) expect(answer.status, answer.text.slice(0, 300)).toBe(status);
  }

  describe('hostile requests', () => {
    // The shared corpus (@mtpx/http-guard/test-support), with the status the proxy answers.
    const proxyStatus: Record<string, number> = {
      TRACE: 405,
      TRACK: 400,
      'OPTIONS *': 404,
      'GET *': 404,
      'Host with userinfo': 400,
      'Host with a space and a second name': 400,
      'Host with a comma and a second name': 400,
      'Host with port 99999': 400,
      'Host with two ports': 400,
      'invalid UTF-8 in the body': 400,
      'a text/plain body from Origin https://evil.example': 403,
      'a JSON body from Origin https://evil.example': 403,
      'a text/plain body without Origin': 415,
      'JSON in another charset': 415,
      'a POST without Content-Type': 415,
      'DNS rebinding: Host evil.example': 403,
      'no Host header': 400,
      'a %ZZ escape': 400,
      'a %E0%A4%A escape': 400,
      'the request target http://[/health': 400,
      'a NUL in the path': 400,
      '64 KB of headers': 431,
      'Content-Length together with Transfer-Encoding': 400,
      'a chunked body over the limit': 413,
      'a declared Content-Length over the limit': 413,
      'a body that is not JSON': 400,
      'JSON nested 20 000 deep': 400,
      'a malformed request line': 400,
      'a bare line feed garbage': 400,
      'a head whose lines end in a bare LF': 400,
      'a bare CR in a header value': 400,
      'a Content-Length with a trailing tab': 400,
      'a garbage request after a pipelined one': 400,
    };
    const target = (): CorpusTarget => ({
      host: host(),
      postPath: '/call',
      getPath: '/health',
      postHeaders: { 'X-MPL-SType': 'org.agent.TaskPlan.v1' },
    });

    it.each(hostileCorpus.map((request) => [request.name, request] as const))(
      '%s: answered 4xx',
      async (name, request) => {
        const outcome = await exchangeRaw(port, request.bytes(target()), request);
        expect(outcomeProblems(request, outcome)).toEqual([]);
        const status = proxyStatus[name];
        if (status !== undefined) expect(outcome.statuses.at(-1), outcome.text).toBe(status);
      },
    );

    it('500 concurrent connections, each a malformed request: every one answered 4xx', async () => {
      const answers = await Promise.all(
        Array.from({ length: 500 }, (_, index) =>
          sendRaw(
            port,
            rawRequest('GET', index % 2 ? '/stypes/%ZZ' : 'http://[/x', { Host: host() }),
          ),
        ),
      );
      // 400 for its malformed target; or 408 when the machine was too busy to read the head
      // within this proxy's 800 ms header timeout (seen on a loaded 2-core CI machine):
      // either way an answer, a client error, never a 500 or a dropped connection.
      for (const answer of answers) {
        expectClientError(answer);
        expect([400, 408], answer.text.slice(0, 300)).toContain(answer.status);
      }
    });

    it('100 trickling clients are cut off with 408 once the header timeout passes', async () => {
      const sockets = await Promise.all(Array.from({ length: 100 }, () => open(port)));
      const answers = sockets.map((socket) => answerOf(socket));
      const head = `GET /health HTTP/1.1\r\nHost: ${host()}\r\nX-Slow: `;
      let sent = 0;
      // One byte per socket every 100 ms: never a complete head.
      const timer = setInterval(() => {
        for (const socket of sockets)
          if (!socket.destroyed) socket.write(head[sent % head.length] ?? 'a');
        sent += 1;
      }, 100);
      try {
        for (const answer of await Promise.all(answers)) expectClientError(answer, 408);
      } finally {
        clearInterval(timer);
      }
    });

    it('a body that stops arriving is answered 408', async () => {
      const answer = await sendRaw(
        port,
        `POST /call HTTP/1.1\r\nHost: ${host()}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"method"`,
        { keepOpen: true },
      );
      expectClientError(answer, 408);
    });

    it('afterwards the proxy answers, accepts allow-listed origins, and every chain verifies', async () => {
      expect((await fetch(`${proxy.url}/health`)).status).toBe(200);
      const allowed = await fetch(`${proxy.url}/call`, {
        method: 'POST',
        headers: json({ Origin: 'https://app.example', 'X-MPL-SType': 'ai.agent.Reasoning.v1' }),
        body: JSON.stringify({ method: 'agent.reason', payload: reasoning }),
      });
      expect(allowed.status).toBe(200);
      for (const id of await proxy.store.planIds()) {
        const verified = await readJson(await fetch(`${proxy.url}/provenance/verify?planId=${id}`));
        expect(verified.valid, JSON.stringify(verified.problems)).toBe(true);
      }
      const chain = await readJson(await fetch(`${proxy.url}/provenance?planId=${planId}`));
      expect(chain.chain.map((entry: { stype: string }) => entry.stype)).toEqual([
        'org.agent.TaskPlan.v1',
        'ai.agent.Reasoning.v1',
      ]);
      expect(proxy.metrics.render(0)).not.toMatch(/status="5\d\d"/);
    });
  });
});
