import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InMemoryProvenanceStore, semanticHash } from '@mtpx/mpl';
import { afterAll, describe, expect, it } from 'vitest';
import { readJson } from '../__fixtures__/spawn-cli';
import { taskPlan, toolInvocation } from '../__fixtures__/tutorial';
import type { ProxyOptions, RunningProxy } from '../proxy-options';
import { startProxy } from '../server';

const started: RunningProxy[] = [];
async function proxyWith(options: ProxyOptions = {}): Promise<RunningProxy> {
  const proxy = await startProxy({ port: 0, store: new InMemoryProvenanceStore(), ...options });
  started.push(proxy);
  return proxy;
}
afterAll(async () => {
  await Promise.all(started.map((proxy) => proxy.close()));
});

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
const plan = (extra: Record<string, string> = {}) => ({
  'X-MPL-SType': 'org.agent.TaskPlan.v1',
  ...extra,
});

describe('--upstream forwarding', () => {
  it('forwards accepted calls and answers with the upstream answer', async () => {
    const seen: Array<{ headers: Record<string, unknown>; body: string }> = [];
    const upstream = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        seen.push({ headers: request.headers, body });
        if (JSON.parse(body).method === 'agent.fail') {
          response.writeHead(503);
          response.end('overloaded');
          return;
        }
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ queryId: 'q-1', status: 'searched' }));
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    try {
      const proxy = await proxyWith({
        upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/rpc`,
      });
      const response = await post(
        `${proxy.url}/call`,
        { method: 'agent.invoke_tool', payload: toolInvocation },
        {
          'X-MPL-SType': 'org.agent.ToolInvocation.v1',
        },
      );
      expect(await readJson(response)).toMatchObject({
        valid: true,
        data: { queryId: 'q-1', status: 'searched' },
      });
      expect(JSON.parse(seen[0]?.body ?? '')).toEqual({
        method: 'agent.invoke_tool',
        payload: toolInvocation,
      });
      expect(seen[0]?.headers).toMatchObject({
        'x-mpl-stype': 'org.agent.ToolInvocation.v1',
        'x-mpl-sem-hash': semanticHash(toolInvocation),
      });
      const failed = await post(
        `${proxy.url}/call`,
        { method: 'agent.fail', payload: toolInvocation },
        {
          'X-MPL-SType': 'org.agent.ToolInvocation.v1',
        },
      );
      expect(failed.status).toBe(502);
      expect(await readJson(failed)).toMatchObject({
        error: 'E-UPSTREAM',
        message: expect.stringContaining('503'),
      });
      const invalid = await post(
        `${proxy.url}/call`,
        { method: 'agent.invoke_tool', payload: {} },
        {
          'X-MPL-SType': 'org.agent.ToolInvocation.v1',
        },
      );
      expect(invalid.status).toBe(422);
      expect(seen).toHaveLength(2);
    } finally {
      upstream.close();
    }
    const unreachable = await proxyWith({ upstream: 'http://127.0.0.1:1/rpc' });
    const response = await post(
      `${unreachable.url}/call`,
      { method: 'm', payload: taskPlan },
      plan(),
    );
    expect(response.status).toBe(502);
    expect((await readJson(response)).error).toBe('E-UPSTREAM');
  });
});

describe('upstream answers checked against their declared SType', () => {
  it('passes a conforming ToolResult, refuses one that does not (502), checks a requested SType', async () => {
    const upstream = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        const method = JSON.parse(body).method as string;
        const result =
          method === 'agent.bad'
            ? { invocationId: 'not-a-uuid', status: 'done' }
            : { invocationId: toolInvocation.invocationId, status: 'success', result: {} };
        response.writeHead(200, {
          'content-type': 'application/json',
          ...(method === 'agent.undeclared' ? {} : { 'x-mpl-stype': 'org.agent.ToolResult.v1' }),
        });
        response.end(JSON.stringify(result));
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    try {
      const proxy = await proxyWith({
        upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/rpc`,
      });
      const headers = { 'X-MPL-SType': 'org.agent.ToolInvocation.v1' };
      const good = await post(
        `${proxy.url}/call`,
        { method: 'agent.ok', payload: toolInvocation },
        headers,
      );
      expect(good.status).toBe(200);
      expect((await readJson(good)).response).toMatchObject({
        stype: 'org.agent.ToolResult.v1',
        valid: true,
      });
      const bad = await post(
        `${proxy.url}/call`,
        { method: 'agent.bad', payload: toolInvocation },
        headers,
      );
      expect(bad.status).toBe(502);
      const refusal = await readJson(bad);
      expect(refusal.error).toBe('E-UPSTREAM');
      expect(refusal.details.map((detail: { path: string }) => detail.path)).toContain('/status');
      const requested = await post(
        `${proxy.url}/call`,
        { method: 'agent.undeclared', payload: toolInvocation },
        { ...headers, 'X-MPL-Response-SType': 'ai.agent.Reasoning.v1' },
      );
      expect(requested.status).toBe(502);
    } finally {
      upstream.close();
    }
  });
});
