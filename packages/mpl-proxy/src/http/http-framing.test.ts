import { randomUUID } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  bareNodeHttpStatus,
  chunkedBody,
  keepAliveRequest,
  nextTurn,
  openExchange,
  type RawExchange,
  type RawResponse,
  writeInPieces,
} from '../__fixtures__/raw-exchange';
import { planId, taskPlan } from '../__fixtures__/tutorial';
import type { RunningProxy } from '../proxy-options';
import { startProxy } from '../server';

// The HTTP/1.1 framing the proxy shows on the wire, whatever serves it: keep-alive,
// pipelining, split and chunked requests, refusals of malformed framing, and timeouts.
// Everything is sent and read on raw sockets; nothing here looks at the server's insides.

const maxBodyBytes = 64 * 1024;
const planBody = JSON.stringify({ method: 'agent.plan', payload: taskPlan });

// Both HTTP layers: node:http (the default) and the proxy's own (`httpLayer: 'fast'`).
describe.each(['node', 'fast'] as const)('the %s HTTP layer', (httpLayer) => {
  let proxy: RunningProxy;
  // Small timeouts, for the cases that wait for one. The idle time is the longest, so a
  // request stalled on a reused connection meets the request timeouts first (node:http also
  // adds 1 s to the idle time before it closes a connection).
  let timed: RunningProxy;
  const exchanges = new Set<RawExchange>();

  beforeAll(async () => {
    [proxy, timed] = await Promise.all([
      startProxy({
        port: 0,
        httpLayer,
        dataDir: await mkdtemp(join(tmpdir(), 'mpl-framing-')),
        maxBodyBytes,
        headersTimeoutMs: 5_000,
        requestTimeoutMs: 10_000,
        idleTimeoutMs: 5_000,
      }),
      startProxy({
        port: 0,
        httpLayer,
        dataDir: await mkdtemp(join(tmpdir(), 'mpl-framing-timed-')),
        maxBodyBytes,
        headersTimeoutMs: 200,
        requestTimeoutMs: 400,
        idleTimeoutMs: 600,
      }),
    ]);
  });

  afterEach(() => {
    for (const exchange of exchanges) exchange.socket.destroy();
    exchanges.clear();
  });

  afterAll(async () => {
    await Promise.all([proxy?.close(), timed?.close()]);
  });

  async function connect(server: RunningProxy = proxy): Promise<RawExchange> {
    const exchange = await openExchange(server.port);
    exchanges.add(exchange);
    return exchange;
  }

  const hostOf = (server: RunningProxy = proxy) => `127.0.0.1:${server.port}`;

  function callHeaders(server: RunningProxy = proxy, extra: Record<string, string> = {}) {
    return {
      Host: hostOf(server),
      'Content-Type': 'application/json',
      'X-MPL-SType': 'org.agent.TaskPlan.v1',
      ...extra,
    };
  }

  const callRequest = (server: RunningProxy = proxy, body = planBody) =>
    keepAliveRequest('POST', '/call', callHeaders(server), body);
  const healthRequest = (server: RunningProxy = proxy) =>
    keepAliveRequest('GET', '/health', { Host: hostOf(server) });

  /** Checks a `/call` answer is a 200 with its provenance entry, and returns the entry's seq. */
  function expectCallAnswer(response: RawResponse): number {
    expect(response.status, response.text.slice(0, 300)).toBe(200);
    const body = JSON.parse(response.text);
    expect(body.stype).toBe('org.agent.TaskPlan.v1');
    expect(typeof body.provenance.seq).toBe('number');
    return body.provenance.seq;
  }

  function expectHealthAnswer(response: RawResponse): void {
    expect(response.status, response.text.slice(0, 300)).toBe(200);
    expect(JSON.parse(response.text).status).toBe('healthy');
  }

  /** A new connection to `server` still gets a 200 from `/health`. */
  async function expectAlive(server: RunningProxy = proxy): Promise<void> {
    const { reader, send } = await connect(server);
    await send(healthRequest(server));
    expectHealthAnswer(await reader.next());
  }

  /** The chain of `id` verifies over the wire; returns its length. */
  async function verifiedLength(exchange: RawExchange, id: string): Promise<number> {
    await exchange.send(
      keepAliveRequest('GET', `/provenance/verify?planId=${id}`, { Host: hostOf() }),
    );
    const response = await exchange.reader.next();
    expect(response.status, response.text.slice(0, 300)).toBe(200);
    const verified = JSON.parse(response.text);
    expect(verified.valid, JSON.stringify(verified.problems)).toBe(true);
    return verified.length;
  }

  describe('keep-alive and pipelining', () => {
    it('answers three calls one after another on one connection, each fully framed', async () => {
      const { reader, send } = await connect();
      const sequenceNumbers: number[] = [];
      for (let index = 0; index < 3; index += 1) {
        await send(callRequest());
        const response = await reader.next();
        sequenceNumbers.push(expectCallAnswer(response));
        expect(response.version).toBe('HTTP/1.1');
        expect(Number(response.headers['content-length'])).toBe(response.body.length);
        expect(response.headers.date).toMatch(
          /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} [\d:]{8} GMT$/,
        );
        expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(response.headers['x-mpl-sem-hash']).toMatch(/^sha256:[0-9a-f]{64}$/);
        expect(response.headers['x-mpl-qom-result']).toBe('pass');
        expect(response.headers['x-mpl-stype']).toBe('org.agent.TaskPlan.v1');
        expect(response.headers.connection?.toLowerCase()).not.toBe('close');
      }
      expect(sequenceNumbers[1]).toBeGreaterThan(sequenceNumbers[0] as number);
      expect(sequenceNumbers[2]).toBeGreaterThan(sequenceNumbers[1] as number);
      expect(reader.pending.length).toBe(0);
    });

    it('answers three requests written in one write, in order', async () => {
      const { reader, send } = await connect();
      await send(Buffer.concat([callRequest(), healthRequest(), callRequest()]));
      const first = expectCallAnswer(await reader.next());
      expectHealthAnswer(await reader.next());
      const third = expectCallAnswer(await reader.next());
      expect(third).toBeGreaterThan(first);
    });

    it('answers a request whose head arrives in 7-byte pieces and whose body in two', async () => {
      const { socket, reader, send } = await connect();
      const request = callRequest();
      const bodyStart = request.indexOf('\r\n\r\n') + 4;
      await writeInPieces(socket, request.subarray(0, bodyStart), 7);
      const half = bodyStart + Math.floor((request.length - bodyStart) / 2);
      await send(request.subarray(bodyStart, half));
      await nextTurn();
      await send(request.subarray(half));
      expectCallAnswer(await reader.next());
    });

    it('answers the first of two requests while the second is only partly sent, then the second', async () => {
      const { reader, send } = await connect();
      const second = callRequest();
      const cut = second.indexOf('Content-Type');
      await send(Buffer.concat([callRequest(), second.subarray(0, cut)]));
      const first = expectCallAnswer(await reader.next());
      await send(second.subarray(cut));
      expect(expectCallAnswer(await reader.next())).toBeGreaterThan(first);
    });

    it('mixes Content-Length, chunked and bodiless requests on one connection', async () => {
      const { reader, send } = await connect();
      await send(callRequest());
      const first = expectCallAnswer(await reader.next());
      const middle = Math.floor(planBody.length / 2);
      await send(
        keepAliveRequest(
          'POST',
          '/call',
          callHeaders(proxy, { 'Transfer-Encoding': 'chunked' }),
          chunkedBody(planBody.slice(0, middle), planBody.slice(middle)),
        ),
      );
      expect(expectCallAnswer(await reader.next())).toBeGreaterThan(first);
      await send(healthRequest());
      expectHealthAnswer(await reader.next());
    });

    it('answers a pipelined chunked request between two simple ones, in order', async () => {
      const { reader, send } = await connect();
      const chunked = keepAliveRequest(
        'POST',
        '/call',
        callHeaders(proxy, { 'Transfer-Encoding': 'chunked' }),
        chunkedBody(planBody.slice(0, 100), planBody.slice(100)),
      );
      await send(Buffer.concat([healthRequest(), chunked, healthRequest()]));
      expectHealthAnswer(await reader.next());
      expectCallAnswer(await reader.next());
      expectHealthAnswer(await reader.next());
    });
  });

  describe('connection handling', () => {
    it('closes the connection after answering a request with Connection: close', async () => {
      const { reader, send } = await connect();
      await send(
        keepAliveRequest('POST', '/call', callHeaders(proxy, { Connection: 'close' }), planBody),
      );
      const response = await reader.next();
      expectCallAnswer(response);
      expect(response.headers.connection?.toLowerCase()).toBe('close');
      expect((await reader.closed()).length).toBe(0);
      expect(reader.ended).toBe(true);
    });

    it('answers an HTTP/1.0 request, then closes the connection', async () => {
      const { reader, send } = await connect();
      await send(`GET /health HTTP/1.0\r\nHost: ${hostOf()}\r\n\r\n`);
      const response = await reader.next();
      expect(response.version).toMatch(/^HTTP\/1\.[01]$/);
      expectHealthAnswer(response);
      expect((await reader.closed()).length).toBe(0);
    });

    it('accepts header names in any case', async () => {
      const { reader, send } = await connect();
      await send(
        keepAliveRequest(
          'POST',
          '/call',
          {
            HOST: hostOf(),
            'cOnTeNt-TyPe': 'application/json',
            'x-mpl-stype': 'org.agent.TaskPlan.v1',
            'CONTENT-length': String(Buffer.byteLength(planBody)),
          },
          planBody,
        ),
      );
      expectCallAnswer(await reader.next());
    });

    it('answers Expect: 100-continue with 100 Continue, then the call', async () => {
      const { reader, send } = await connect();
      const request = keepAliveRequest(
        'POST',
        '/call',
        callHeaders(proxy, { Expect: '100-continue' }),
        planBody,
      );
      const bodyStart = request.indexOf('\r\n\r\n') + 4;
      await send(request.subarray(0, bodyStart));
      const interim = await reader.next();
      expect(interim.status).toBe(100);
      expect(interim.body.length).toBe(0);
      await send(request.subarray(bodyStart));
      expectCallAnswer(await reader.next());
    });

    // node:http ends its side as soon as the client's FIN arrives (httpAllowHalfOpen is
    // false), so only an answer written before then gets out: a /call, which waits for the
    // store, is not answered after a half-close. /health answers at once.
    it('still answers a GET /health the client half-closes after', async () => {
      const { socket, reader, send } = await connect();
      await send(healthRequest());
      socket.end();
      expectHealthAnswer(await reader.next());
      expect((await reader.closed()).length).toBe(0);
    });

    it('answers 200 sequential calls on one connection, and the chain verifies', async () => {
      const exchange = await connect();
      const id = randomUUID();
      const request = callRequest(
        proxy,
        JSON.stringify({ method: 'agent.plan', payload: { ...taskPlan, planId: id } }),
      );
      const sequenceNumbers: number[] = [];
      for (let index = 0; index < 200; index += 1) {
        await exchange.send(request);
        sequenceNumbers.push(expectCallAnswer(await exchange.reader.next()));
      }
      expect(sequenceNumbers).toEqual(Array.from({ length: 200 }, (_, index) => index + 1));
      expect(await verifiedLength(exchange, id)).toBe(200);
    });

    it('survives clients that disconnect before their answer, and the chain still verifies', async () => {
      const request = callRequest();
      const bodyStart = request.indexOf('\r\n\r\n') + 4;
      const leaving = await Promise.all(Array.from({ length: 6 }, () => connect()));
      await Promise.all(
        leaving.map(async ({ socket, send }, index) => {
          // Gone after the whole request, after the head only, or with a reset.
          await send(index % 3 === 1 ? request.subarray(0, bodyStart) : request);
          if (index % 3 === 2) socket.resetAndDestroy();
          else socket.destroy();
        }),
      );
      const exchange = await connect();
      await exchange.send(callRequest());
      expectCallAnswer(await exchange.reader.next());
      expect(await verifiedLength(exchange, planId)).toBeGreaterThan(0);
    });
  });

  describe('issue 23: heads the own layer once read differently from node:http', () => {
    it('answers every pipelined request before a garbage one, then 400, then closes', async () => {
      const { reader, send } = await connect();
      const chunked = keepAliveRequest(
        'POST',
        '/call',
        callHeaders(proxy, { 'Transfer-Encoding': 'chunked' }),
        chunkedBody(planBody.slice(0, 100), planBody.slice(100)),
      );
      await send(Buffer.concat([healthRequest(), chunked, Buffer.from('GARBAGE\r\n\r\n')]));
      expectHealthAnswer(await reader.next());
      expectCallAnswer(await reader.next());
      const refused = await reader.next();
      expect(refused.status, refused.text).toBe(400);
      expect((await reader.closed()).length).toBe(0);
    });

    it('answers a head whose lines end in a bare LF with 400 at once', async () => {
      const { reader, send } = await connect();
      await send(`GET /health HTTP/1.1\nHost: ${hostOf()}\n\n`);
      expect((await reader.next()).status).toBe(400);
      await reader.closed();
    });

    it('reads a Content-Length with a trailing tab as node:http does (Node 20 refuses it, 22 and later take the tab as whitespace)', async () => {
      const request = (host: string) =>
        `POST /call HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nX-MPL-SType: org.agent.TaskPlan.v1\r\nContent-Length: ${Buffer.byteLength(planBody)}\t\r\n\r\n${planBody}`;
      // RFC 9110 §5.5: a field value's trailing whitespace (OWS: space or tab) is not part of
      // it. Node 20's llhttp refuses this head anyway; the proxy reads heads as node:http does.
      const reference = await bareNodeHttpStatus(request);
      const { reader, send } = await connect();
      await send(request(hostOf()));
      if (reference === 400) {
        expect((await reader.next()).status).toBe(400);
        await reader.closed();
      } else {
        expect(reference).toBe(200);
        expectCallAnswer(await reader.next());
        await expectAlive();
      }
    });

    it('closes after answering Proxy-Connection: close', async () => {
      const { reader, send } = await connect();
      await send(
        keepAliveRequest('GET', '/health', { Host: hostOf(), 'Proxy-Connection': 'close' }),
      );
      expectHealthAnswer(await reader.next());
      expect((await reader.closed()).length).toBe(0);
    });

    it('never drops a request pipelined after Connection: close silently: it is answered 400, then the connection closes', async () => {
      const { reader, send } = await connect();
      await send(
        Buffer.concat([
          keepAliveRequest('GET', '/health', { Host: hostOf(), Connection: 'close' }),
          healthRequest(),
        ]),
      );
      const first = await reader.next();
      expectHealthAnswer(first);
      expect(first.headers.connection?.toLowerCase()).toBe('close');
      const after = await reader.next();
      expect(after.status).toBe(400);
      expect(after.text).toContain('HPE_CLOSED_CONNECTION');
      expect((await reader.closed()).length).toBe(0);
    });

    it('serves a request without Host as node:http does: 400', async () => {
      const { reader, send } = await connect();
      await send('GET /health HTTP/1.1\r\n\r\n');
      expect((await reader.next()).status).toBe(400);
    });
  });

  describe('refusals', () => {
    const host = () => hostOf();
    const post = (headerLines: string, body = '{}') =>
      `POST /call HTTP/1.1\r\nHost: ${host()}\r\nContent-Type: application/json\r\nX-MPL-SType: org.agent.TaskPlan.v1\r\n${headerLines}\r\n${body}`;
    const health = (headerLines: string) =>
      `GET /health HTTP/1.1\r\nHost: ${host()}\r\n${headerLines}\r\n`;
    // Each is refused by the HTTP parser: a parser-level 400 in the proxy's error shape, and
    // the connection closed, since nothing after a framing error can be trusted.
    const cases: Array<{ name: string; bytes: () => string; status: number }> = [
      {
        name: 'two Content-Length headers with different values',
        bytes: () => post('Content-Length: 2\r\nContent-Length: 3\r\n'),
        status: 400,
      },
      {
        name: 'two Content-Length headers with the same value',
        bytes: () => post('Content-Length: 2\r\nContent-Length: 2\r\n'),
        status: 400,
      },
      {
        name: 'a Content-Length with a non-digit (12a)',
        bytes: () => post('Content-Length: 12a\r\n'),
        status: 400,
      },
      {
        name: 'a negative Content-Length (-1)',
        bytes: () => post('Content-Length: -1\r\n'),
        status: 400,
      },
      {
        name: 'a space between a header name and its colon',
        bytes: () => health('X-Spaced : 1\r\n'),
        status: 400,
      },
      {
        name: 'a header continued on an obs-fold line',
        bytes: () => health('X-Folded: a\r\n b\r\n'),
        status: 400,
      },
      { name: 'a NUL in a header value', bytes: () => health('X-Nul: a\u0000b\r\n'), status: 400 },
      {
        name: 'a control character in a header value',
        bytes: () => health('X-Control: a\u0001b\r\n'),
        status: 400,
      },
      {
        name: 'a lower-case method',
        bytes: () =>
          `post /call HTTP/1.1\r\nHost: ${host()}\r\nContent-Type: application/json\r\nX-MPL-SType: org.agent.TaskPlan.v1\r\nContent-Length: ${Buffer.byteLength(planBody)}\r\n\r\n${planBody}`,
        status: 400,
      },
      {
        name: 'a tab between method and target',
        bytes: () => `GET\t/health HTTP/1.1\r\nHost: ${host()}\r\n\r\n`,
        status: 400,
      },
    ];

    it.each(cases)('$name: answered $status, then the connection closes', async (refused) => {
      const { reader, send } = await connect();
      await send(Buffer.from(refused.bytes(), 'latin1'));
      const response = await reader.next();
      expect(response.status, response.text.slice(0, 300)).toBe(refused.status);
      expect(JSON.parse(response.text).error).toBe('E-INVALID-REQUEST');
      await reader.closed();
      expect(reader.ended).toBe(true);
      await expectAlive();
    });

    // node:http's parser skips repeated spaces in the request line and empty lines before it.
    it.each([
      { name: 'two spaces after the method', line: 'GET  /health HTTP/1.1\r\n' },
      { name: 'two spaces before the version', line: 'GET /health  HTTP/1.1\r\n' },
      { name: 'an empty line before the request line', line: '\r\nGET /health HTTP/1.1\r\n' },
    ])('accepts a request line with $name', async ({ line }) => {
      const { reader, send } = await connect();
      await send(`${line}Host: ${host()}\r\n\r\n`);
      expectHealthAnswer(await reader.next());
      await send(healthRequest());
      expectHealthAnswer(await reader.next());
    });

    it('answers 417 to an Expect other than 100-continue, and the connection still serves', async () => {
      const { reader, send } = await connect();
      await send(health('Expect: something-else\r\n'));
      expect((await reader.next()).status).toBe(417);
      await send(healthRequest());
      expectHealthAnswer(await reader.next());
    });

    it('refuses malformed framing on a connection that already served a request', async () => {
      const { reader, send } = await connect();
      await send(healthRequest());
      expectHealthAnswer(await reader.next());
      await send(post('Content-Length: 12a\r\n'));
      expect((await reader.next()).status).toBe(400);
      await reader.closed();
      await expectAlive();
    });

    it('reads a body of exactly maxBodyBytes, and answers 413 to one byte more', async () => {
      const padded = planBody.padEnd(maxBodyBytes, ' ');
      expect(Buffer.byteLength(padded)).toBe(maxBodyBytes);
      const { reader, send } = await connect();
      await send(callRequest(proxy, padded));
      expectCallAnswer(await reader.next());

      const over = await connect();
      await over.send(callRequest(proxy, `${padded} `));
      const refused = await over.reader.next();
      expect(refused.status, refused.text.slice(0, 300)).toBe(413);
      expect(JSON.parse(refused.text).error).toBe('E-PAYLOAD-TOO-LARGE');
      await expectAlive();
    });
  });

  describe('timeouts', () => {
    it('closes an idle keep-alive connection once the idle time passes, sending nothing', async () => {
      const { reader, send } = await connect(timed);
      await send(healthRequest(timed));
      expectHealthAnswer(await reader.next());
      expect((await reader.closed()).length).toBe(0);
    });

    it('answers 408 to a head that never completes', async () => {
      const { reader, send } = await connect(timed);
      await send(`GET /health HTTP/1.1\r\nHost: ${hostOf(timed)}\r\nX-Slow: `);
      expect((await reader.next()).status).toBe(408);
      expect((await reader.closed()).length).toBe(0);
    });

    it('answers 408 when the second request on a reused connection stalls mid-head', async () => {
      const { reader, send } = await connect(timed);
      await send(healthRequest(timed));
      expectHealthAnswer(await reader.next());
      await send(`POST /call HTTP/1.1\r\nHost: ${hostOf(timed)}\r\nContent-Ty`);
      expect((await reader.next()).status).toBe(408);
      expect((await reader.closed()).length).toBe(0);
    });

    it('answers 408 when the body of the second request on a reused connection stops', async () => {
      const { reader, send } = await connect(timed);
      await send(healthRequest(timed));
      expectHealthAnswer(await reader.next());
      const request = callRequest(timed);
      await send(request.subarray(0, request.length - 10));
      expect((await reader.next()).status).toBe(408);
      expect((await reader.closed()).length).toBe(0);
      await expectAlive(timed);
    });
  });
});
