import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerOf, open, type RawAnswer, rawRequest, sendRaw } from './__fixtures__/raw-http';
import { readJson } from './__fixtures__/spawn-cli';
import { planId, reasoning, taskPlan } from './__fixtures__/tutorial';
import type { RunningProxy } from './proxy-options';
import { startProxy } from './server';

// The catalogue of hostile requests of issue 14, sent on raw sockets: every answer is a
// 4xx (never a 500, never a hang), and afterwards the proxy still answers and its chains verify.
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
  const invalidUtf8 = Buffer.concat([
    Buffer.from('{"method":"agent.plan","payload":{"planId":"'),
    Buffer.from([0xc3, 0x28]),
    Buffer.from('"}}'),
  ]);
  const deep = `{"method":"m","payload":${'['.repeat(20_000)}${']'.repeat(20_000)}}`;
  const cases: Array<[string, () => Buffer | string, number]> = [
    ['invalid UTF-8 in the body', () => rawRequest('POST', '/call', json(), invalidUtf8), 400],
    [
      'a text/plain body from Origin https://evil.example',
      () =>
        rawRequest(
          'POST',
          '/call',
          json({ 'Content-Type': 'text/plain', Origin: 'https://evil.example' }),
          planBody,
        ),
      403,
    ],
    [
      'a JSON body from Origin https://evil.example',
      () => rawRequest('POST', '/call', json({ Origin: 'https://evil.example' }), planBody),
      403,
    ],
    [
      'a text/plain body without Origin',
      () => rawRequest('POST', '/call', json({ 'Content-Type': 'text/plain' }), planBody),
      415,
    ],
    [
      'JSON in another charset',
      () =>
        rawRequest(
          'POST',
          '/call',
          json({ 'Content-Type': 'application/json; charset=latin1' }),
          planBody,
        ),
      415,
    ],
    [
      'a POST without Content-Type',
      () =>
        rawRequest(
          'POST',
          '/call',
          { Host: host(), 'X-MPL-SType': 'org.agent.TaskPlan.v1' },
          planBody,
        ),
      415,
    ],
    [
      'DNS rebinding: GET /provenance with Host evil.example',
      () =>
        rawRequest('GET', `/provenance?planId=${planId}&payloads=true`, { Host: 'evil.example' }),
      403,
    ],
    ['no Host header', () => `GET /health HTTP/1.1\r\nConnection: close\r\n\r\n`, 400],
    ['GET /stypes/%ZZ', () => rawRequest('GET', '/stypes/%ZZ', { Host: host() }), 400],
    ['GET /stypes/%E0%A4%A', () => rawRequest('GET', '/stypes/%E0%A4%A', { Host: host() }), 400],
    [
      'the request target http://[/health',
      () => rawRequest('GET', 'http://[/health', { Host: host() }),
      400,
    ],
    ['a NUL in the path', () => rawRequest('GET', '/stypes/a%00b', { Host: host() }), 400],
    [
      '64 KB of headers',
      () => rawRequest('GET', '/health', { Host: host(), 'X-Padding': 'a'.repeat(64 * 1024) }),
      431,
    ],
    [
      'Content-Length together with Transfer-Encoding',
      () =>
        `POST /call HTTP/1.1\r\nHost: ${host()}\r\nContent-Type: application/json\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n`,
      400,
    ],
    [
      'a chunked body over the limit',
      () => {
        const chunk = 'x'.repeat(16 * 1024);
        const chunks = Array.from(
          { length: 8 },
          () => `${(16 * 1024).toString(16)}\r\n${chunk}\r\n`,
        );
        return `POST /call HTTP/1.1\r\nHost: ${host()}\r\nConnection: close\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${chunks.join('')}0\r\n\r\n`;
      },
      413,
    ],
    [
      'a declared Content-Length over the limit',
      () => rawRequest('POST', '/call', json({ 'Content-Length': String(10 * 1024 * 1024) }), '{}'),
      413,
    ],
    ['a body that is not JSON', () => rawRequest('POST', '/call', json(), '{"method":'), 400],
    ['JSON nested 20 000 deep', () => rawRequest('POST', '/call', json(), deep), 400],
    [
      'a malformed request line',
      () => `GET /health HTTP/1.1 extra\r\nHost: ${host()}\r\n\r\n`,
      400,
    ],
    ['a bare line feed garbage', () => 'NOT HTTP AT ALL\n\n', 400],
  ];

  it.each(cases)('%s: answered 4xx', async (_name, bytes, status) => {
    expectClientError(await sendRaw(port, bytes()), status);
  });

  it('500 concurrent connections, each a malformed request: every one answered 4xx', async () => {
    const answers = await Promise.all(
      Array.from({ length: 500 }, (_, index) =>
        sendRaw(
          port,
          rawRequest('GET', index % 2 ? '/stypes/%ZZ' : 'http://[/x', { Host: host() }),
        ),
      ),
    );
    for (const answer of answers) expectClientError(answer, 400);
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
