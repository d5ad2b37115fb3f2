import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { connectModernClient } from '../test-support/clients';
import { testServer } from '../test-support/server';
import { createHttpGuard } from './http-guard';
import { type McpHttpServer, serveMcp } from './serve-mcp';

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

/** A raw POST with exactly these headers (fetch would not let a test set `Host`). */
function post(url: URL, headers: Record<string, string>): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
      },
      (response) => {
        response.resume();
        resolve(response.statusCode);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(initialize);
  });
}

let http: McpHttpServer | undefined;
afterEach(async () => {
  await http?.close();
  http = undefined;
});

describe('serveMcp on loopback (the default)', () => {
  it('refuses a cross-origin request and a foreign Host; accepts localhost origins', async () => {
    http = await serveMcp(testServer(), { port: 0 });
    const host = `127.0.0.1:${http.port}`;
    expect(await post(http.url, { host, origin: 'https://evil.example' })).toBe(403);
    expect(await post(http.url, { host: 'evil.example' })).toBe(403);
    expect(await post(http.url, { host: `evil.example:${http.port}` })).toBe(403);
    expect(await post(http.url, { host, origin: `http://localhost:5173` })).toBe(200);
    expect(await post(http.url, { host })).toBe(200);
  });

  it('takes an allow-list instead of the localhost names', async () => {
    http = await serveMcp(testServer(), {
      port: 0,
      allowedHosts: ['mcp.internal'],
      allowedOrigins: ['app.example'],
    });
    expect(await post(http.url, { host: 'mcp.internal', origin: 'https://app.example' })).toBe(200);
    expect(await post(http.url, { host: 'mcp.internal', origin: 'http://localhost' })).toBe(403);
    expect(await post(http.url, { host: `127.0.0.1:${http.port}` })).toBe(403);
  });
});

/** Sends `head` as is on a fresh connection; resolves with the status line's code (0: closed unanswered). */
function raw(port: number, head: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(head));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      answer += chunk;
      const status = /^HTTP\/1\.1 (\d{3})/.exec(answer);
      if (status) {
        resolve(Number(status[1]));
        socket.destroy();
      }
    });
    socket.on('error', reject);
    // Node closes a CONNECT nobody listens for without an answer.
    socket.on('close', () => resolve(0));
  });
}

describe('serveMcp and requests that make no web Request', () => {
  it.each([
    ['TRACE', (host: string) => `TRACE /mcp HTTP/1.1\r\nHost: ${host}\r\n\r\n`, 405],
    ['CONNECT', () => `CONNECT localhost:80 HTTP/1.1\r\nHost: localhost:80\r\n\r\n`, 0],
    [
      'PUT',
      (host: string) => `PUT /mcp HTTP/1.1\r\nHost: ${host}\r\nContent-Length: 0\r\n\r\n`,
      405,
    ],
    [
      'an absolute-form target',
      (host: string) => `GET http://${host}/other HTTP/1.1\r\nHost: ${host}\r\n\r\n`,
      404,
    ],
    ['the * target', (host: string) => `OPTIONS * HTTP/1.1\r\nHost: ${host}\r\n\r\n`, 405],
    ['a Host with userinfo', () => `GET /mcp HTTP/1.1\r\nHost: evil@localhost\r\n\r\n`, 400],
    // Issue 23: each of these once ended the process.
    // (llhttp does not know TRACK: node:http's parser refuses it.)
    ['TRACK', (host: string) => `TRACK /mcp HTTP/1.1\r\nHost: ${host}\r\n\r\n`, 400],
    ['the * target with GET', (host: string) => `GET * HTTP/1.1\r\nHost: ${host}\r\n\r\n`, 404],
    [
      'an absolute-form target to the endpoint',
      (host: string) => `DELETE http://${host}/mcp HTTP/1.1\r\nHost: ${host}\r\n\r\n`,
      400,
    ],
    [
      'a Host with a second name after a space',
      (host: string) => `GET /mcp HTTP/1.1\r\nHost: ${host} evil.example\r\n\r\n`,
      400,
    ],
    [
      'a Host with a second name after a comma',
      (host: string) => `GET /mcp HTTP/1.1\r\nHost: ${host}, evil.example\r\n\r\n`,
      400,
    ],
    ['a Host with port 99999', () => `GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:99999\r\n\r\n`, 400],
    ['a Host with two ports', () => `GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:80:80\r\n\r\n`, 400],
    ['a Host with a bad port', () => `GET /mcp HTTP/1.1\r\nHost: localhost:http\r\n\r\n`, 400],
    ['an unclosed IPv6 Host', () => `GET /mcp HTTP/1.1\r\nHost: [::1\r\n\r\n`, 400],
    ['no Host', () => `GET /mcp HTTP/1.0\r\n\r\n`, 400],
    [
      'a target that is no URL',
      (host: string) => `GET http://[/mcp HTTP/1.1\r\nHost: ${host}\r\n\r\n`,
      400,
    ],
    [
      'a text/plain POST',
      (host: string) =>
        `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\n{}`,
      415,
    ],
  ])('answers %s with %i, and keeps serving', async (_name, head, status) => {
    http = await serveMcp(testServer(), { port: 0 });
    expect(await raw(http.port, head(`127.0.0.1:${http.port}`))).toBe(status);
    expect(await post(http.url, { host: `localhost:${http.port}` })).toBe(200);
  });
});

describe('createHttpGuard bound to a public interface without an allow-list', () => {
  const guard = createHttpGuard({ host: '0.0.0.0' });
  const request = (headers: Record<string, string>) =>
    new Request('http://mcp.example.com/mcp', { method: 'POST', headers });

  it('lets same-origin and Origin-less requests through, refuses other origins', () => {
    expect(guard(request({ host: 'mcp.example.com' }))).toBeUndefined();
    expect(
      guard(request({ host: 'mcp.example.com:8080', origin: 'https://mcp.example.com' })),
    ).toBeUndefined();
    expect(
      guard(request({ host: 'mcp.example.com', origin: 'https://evil.example' }))?.status,
    ).toBe(403);
    expect(guard(request({ host: 'mcp.example.com', origin: 'null' }))?.status).toBe(403);
  });
});

describe('the bearer-token hook', () => {
  it('answers 401 with a challenge unless the check accepts the token; the client gets through with it', async () => {
    const seen: string[] = [];
    http = await serveMcp(testServer(), {
      port: 0,
      checkBearerToken: (token, request) => {
        seen.push(`${request.method} ${token}`);
        return token === 'secret-token';
      },
    });
    const bare = await fetch(http.url, { method: 'POST', body: initialize });
    expect(bare.status).toBe(401);
    expect(bare.headers.get('www-authenticate')).toBe('Bearer');
    const wrong = await fetch(http.url, {
      method: 'POST',
      body: initialize,
      headers: { authorization: 'Bearer guessed' },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toContain('error="invalid_token"');

    const client = await connectModernClient(
      http.url,
      {},
      {
        fetch: (input, init) => {
          const headers = new Headers(init?.headers);
          headers.set('authorization', 'Bearer secret-token');
          return fetch(input, { ...init, headers });
        },
      },
    );
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('book_table');
    await client.close();
    expect(seen).toContain('POST guessed');
    expect(seen).toContain('POST secret-token');
  });

  it('refuses when the check throws, and reports the error', async () => {
    const errors: string[] = [];
    http = await serveMcp(testServer(), {
      port: 0,
      checkBearerToken: () => {
        throw new Error('introspection endpoint down');
      },
      onError: (error) => errors.push(error.message),
    });
    const refused = await fetch(http.url, {
      method: 'POST',
      body: initialize,
      headers: { authorization: 'Bearer any' },
    });
    expect(refused.status).toBe(401);
    expect(errors).toEqual(['introspection endpoint down']);
  });
});
