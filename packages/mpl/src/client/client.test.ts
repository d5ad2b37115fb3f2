import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ConnectionError,
  InternalError,
  MPL_ERROR_CODES,
  MplError,
  QomBreachError,
  SchemaFidelityError,
  UnauthorizedError,
} from '../errors';
import { MplClient } from './client';

type Handler = (request: IncomingMessage, response: ServerResponse, body: string) => void;
const servers: Array<{ close: () => void }> = [];

async function serve(handler: Handler): Promise<string> {
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => handler(request, response, body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push({ close: () => server.close() });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

const json = (response: ServerResponse, status: number, body: unknown) => {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
};

describe('MplClient', () => {
  it('sends the method, payload, SType, profile and token, and reads the answer in camelCase', async () => {
    let seen: { headers: IncomingMessage['headers']; body: unknown } | undefined;
    const url = await serve((request, response, body) => {
      seen = { headers: request.headers, body: JSON.parse(body) };
      json(response, 200, {
        valid: true,
        stype: 'org.agent.TaskPlan.v1',
        sem_hash: 'sha256:ab',
        qom: {
          profile: 'qom-basic',
          passed: true,
          metrics: { schema_fidelity: 1 },
          failures: [],
          failed_assertions: [],
        },
        provenance: {
          plan_id: 'p',
          seq: 1,
          parent_hash: null,
          entry_hash: 'sha256:cd',
          timestamp: 't',
        },
        data: { ok: true },
        errors: [],
      });
    });
    const client = new MplClient(`${url}/`, { token: 'secret' });
    const result = await client.call('agent.plan', {
      payload: { planId: 'p' },
      headers: { 'X-MPL-SType': 'org.agent.TaskPlan.v1' },
      profile: 'qom-basic',
      scores: { groundedness: 0.9 },
    });
    expect(seen?.headers).toMatchObject({
      authorization: 'Bearer secret',
      'x-mpl-stype': 'org.agent.TaskPlan.v1',
      'x-mpl-profile': 'qom-basic',
      'content-type': 'application/json',
    });
    expect(seen?.body).toEqual({
      method: 'agent.plan',
      payload: { planId: 'p' },
      scores: { groundedness: 0.9 },
    });
    expect(result).toMatchObject({
      valid: true,
      semHash: 'sha256:ab',
      qomPassed: true,
      data: { ok: true },
      provenance: { planId: 'p', seq: 1, parentHash: null, entryHash: 'sha256:cd' },
    });
  });

  it.each(MPL_ERROR_CODES)('raises the typed error of %s', async (code) => {
    const url = await serve((_request, response) =>
      json(response, 422, {
        error: code,
        message: `failed with ${code}`,
        details: [{ path: '/a', message: 'bad' }],
      }),
    );
    const error = await new MplClient(url).health().catch((cause) => cause);
    expect(MplError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code,
      status: 422,
      message: `failed with ${code}`,
      details: [{ path: '/a' }],
    });
    expect((error as Error).name).not.toBe('MplError');
  });

  it('maps codes to classes that isInstance recognises', async () => {
    const url = await serve((request, response) => {
      if (request.url === '/call')
        json(response, 422, { error: 'E-SCHEMA-FIDELITY', message: 'm', details: [] });
      else if (request.url === '/health')
        json(response, 401, { error: 'E-UNAUTHORIZED', message: 'm', details: [] });
      else json(response, 422, { error: 'E-QOM-BREACH', message: 'm', details: [] });
    });
    const client = new MplClient(url);
    const schema = await client
      .call('x', { payload: {}, stype: 'a.b.C.v1' })
      .catch((cause) => cause);
    expect(SchemaFidelityError.isInstance(schema)).toBe(true);
    expect(QomBreachError.isInstance(schema)).toBe(false);
    expect(UnauthorizedError.isInstance(await client.health().catch((cause) => cause))).toBe(true);
    expect(QomBreachError.isInstance(await client.capabilities().catch((cause) => cause))).toBe(
      true,
    );
  });

  it('turns an unknown code from a newer proxy into E-INTERNAL', async () => {
    const url = await serve((_request, response) =>
      json(response, 400, { error: 'E-FUTURE', message: 'm' }),
    );
    expect(
      InternalError.isInstance(await new MplClient(url).health().catch((cause) => cause)),
    ).toBe(true);
  });

  it('raises ConnectionError for an unreachable proxy and for answers that are not MPL', async () => {
    const url = await serve((request, response) => {
      if (request.url === '/health') {
        response.writeHead(502);
        response.end('<html>bad gateway</html>');
      } else {
        response.writeHead(200);
        response.end('not json');
      }
    });
    const client = new MplClient(url);
    const gateway = await client.health().catch((cause) => cause);
    expect(ConnectionError.isInstance(gateway)).toBe(true);
    expect(gateway).toMatchObject({ status: 502 });
    expect(ConnectionError.isInstance(await client.capabilities().catch((cause) => cause))).toBe(
      true,
    );
    const closed = new MplClient('http://127.0.0.1:1');
    expect(ConnectionError.isInstance(await closed.health().catch((cause) => cause))).toBe(true);
  });

  it('reads the message stream as Server-Sent Events', async () => {
    const url = await serve((request, response) => {
      expect(request.url).toBe('/messages?stype=a.b.C.v1');
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(': hello\n\nevent: ready\ndata: {}\n\n');
      response.write('data: {"stype":"a.b.C.v1","payload":{"n":1}}\n\n');
      response.end('data: {"stype":"a.b.C.v1",\r\ndata: "payload":{"n":2}}\r\n\r\n');
    });
    let ready = false;
    const seen: unknown[] = [];
    for await (const message of new MplClient(url).messages({
      stypes: ['a.b.C.v1'],
      onReady: () => (ready = true),
    }))
      seen.push(message.payload);
    expect(ready).toBe(true);
    expect(seen).toEqual([{ n: 1 }, { n: 2 }]);
  });
});
