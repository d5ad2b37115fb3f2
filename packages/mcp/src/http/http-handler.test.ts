import { afterEach, describe, expect, it, vi } from 'vitest';
import { testServer } from '../test-support/server';
import { createMcpHttpHandler, type McpHttpHandler } from './http-handler';
import { type McpHttpServer, serveMcp } from './serve-mcp';

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'raw-legacy', version: '1.0.0' },
  },
};

const post = (body: unknown, headers: Record<string, string> = {}) =>
  new Request('http://127.0.0.1/mcp', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify(body),
  });

let handler: McpHttpHandler | undefined;
let http: McpHttpServer | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await handler?.close();
  await http?.close();
  handler = undefined;
  http = undefined;
});

describe('createMcpHttpHandler: the 2025-era sessions', () => {
  it('opens a session on initialize and routes by Mcp-Session-Id', async () => {
    handler = createMcpHttpHandler(testServer());
    const opened = await handler.fetch(post(initialize));
    const sessionId = opened.headers.get('mcp-session-id');
    expect(opened.status).toBe(200);
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(handler.sessionCount).toBe(1);

    const list = await handler.fetch(
      post(
        { jsonrpc: '2.0', id: 2, method: 'tools/list' },
        { 'mcp-session-id': sessionId as string, 'mcp-protocol-version': '2025-06-18' },
      ),
    );
    expect(await list.text()).toContain('book_table');

    const deleted = await handler.fetch(
      new Request('http://127.0.0.1/mcp', {
        method: 'DELETE',
        headers: { 'mcp-session-id': sessionId as string, 'mcp-protocol-version': '2025-06-18' },
      }),
    );
    expect(deleted.status).toBe(200);
    expect(handler.sessionCount).toBe(0);
  });

  it('answers 404 for an unknown session and 400 without one', async () => {
    handler = createMcpHttpHandler(testServer());
    const unknown = await handler.fetch(
      post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, { 'mcp-session-id': 'nope' }),
    );
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { code: -32001 } });
    const noSession = await handler.fetch(post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }));
    expect(noSession.status).toBe(400);
  });

  it('refuses sessions beyond maxSessions', async () => {
    handler = createMcpHttpHandler(testServer(), { maxSessions: 1 });
    expect((await handler.fetch(post(initialize))).status).toBe(200);
    expect((await handler.fetch(post(initialize))).status).toBe(503);
  });

  it('closes a session left idle', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    handler = createMcpHttpHandler(testServer(), { sessionIdleMs: 1000 });
    await handler.fetch(post(initialize));
    expect(handler.sessionCount).toBe(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(handler.sessionCount).toBe(0);
  });
});

describe('serveMcp', () => {
  it('serves only its path and refuses foreign Host headers on loopback', async () => {
    http = await serveMcp(testServer(), { port: 0 });
    expect(http.url.href).toBe(`http://127.0.0.1:${http.port}/mcp`);
    const elsewhere = await fetch(new URL('/other', http.url));
    expect(elsewhere.status).toBe(404);
    const { request } = await import('node:http');
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const outgoing = request(
        http?.url as URL,
        {
          method: 'POST',
          headers: { host: 'evil.example', 'content-type': 'application/json' },
        },
        (response) => {
          response.resume();
          resolve(response.statusCode);
        },
      );
      outgoing.on('error', reject);
      outgoing.end(JSON.stringify(initialize));
    });
    expect(status).toBe(403);
  });

  it('reports a port it cannot listen on', async () => {
    http = await serveMcp(testServer(), { port: 0 });
    await expect(serveMcp(testServer(), { port: http.port })).rejects.toMatchObject({
      name: 'McpAdapterError',
      message: expect.stringContaining(`Cannot listen on 127.0.0.1:${http.port}`),
    });
  });
});
