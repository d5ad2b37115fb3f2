import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { NodeExchange, sendJson } from './exchange';

let server: Server | undefined;

afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** Serves one request through a {@link NodeExchange}; resolves with the exchange. */
async function exchangeOf(body: string): Promise<{ answer: Response; exchange: NodeExchange }> {
  let made: NodeExchange | undefined;
  server = createServer(async (request, response) => {
    const exchange = new NodeExchange(request, response);
    made = exchange;
    const read = await exchange.body(1024);
    expect(exchange.answered).toBe(false);
    sendJson(exchange, 200, { read: read.ok ? read.text : null }, { 'x-mpl-test': 'yes' });
    expect(exchange.answered).toBe(true);
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const answer = await fetch(`http://127.0.0.1:${port}/call`, { method: 'POST', body });
  return { answer, exchange: made as NodeExchange };
}

describe('NodeExchange', () => {
  it('reads the body, answers JSON with a Content-Length and the route headers', async () => {
    const { answer } = await exchangeOf('{"a":"é"}');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(answer.headers.get('x-mpl-test')).toBe('yes');
    const text = await answer.text();
    expect(Number(answer.headers.get('content-length'))).toBe(Buffer.byteLength(text));
    expect(JSON.parse(text)).toEqual({ read: '{"a":"é"}' });
  });

  it('keeps `answered` on its prototype: no accessor is allocated per request', async () => {
    // A getter in a per-request object literal costs V8 an old-space accessor pair that keeps
    // the request's young objects alive through every scavenge (issue 23, bench row 5).
    const { exchange } = await exchangeOf('{}');
    expect(Object.getOwnPropertyDescriptor(exchange, 'answered')).toBeUndefined();
    expect(Object.getOwnPropertyDescriptor(NodeExchange.prototype, 'answered')?.get).toBeTypeOf(
      'function',
    );
  });
});
