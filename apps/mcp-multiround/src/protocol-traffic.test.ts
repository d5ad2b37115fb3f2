import { describe, expect, it } from 'vitest';
import { type TrafficEvent, watchTraffic } from './protocol-traffic';

/** A transport that records what it sends and lets the test deliver messages. */
class FakeTransport {
  sent: unknown[] = [];
  onmessage: ((message: unknown) => void) | undefined;
  readonly #secret = 'private fields must keep working through the proxy';

  async send(message: unknown): Promise<void> {
    this.sent.push(message);
  }

  secret(): string {
    return this.#secret;
  }

  deliver(message: unknown): void {
    this.onmessage?.(message);
  }
}

function watched() {
  const events: TrafficEvent[] = [];
  const transport = new FakeTransport();
  const proxy = watchTraffic(transport, (event) => events.push(event));
  const handled: unknown[] = [];
  proxy.onmessage = (message) => handled.push(message);
  return { events, transport, proxy, handled };
}

describe('watching a tool call on the wire', () => {
  it('reports a 2026-07-28 call: input_required, then a retry with the answers and the state', async () => {
    const { events, transport, proxy, handled } = watched();
    await proxy.send({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'book', arguments: { a: 1 } },
    });
    transport.deliver({
      jsonrpc: '2.0',
      id: 1,
      result: {
        resultType: 'input_required',
        inputRequests: { date: { method: 'elicitation/create', params: {} } },
        requestState: 'abc',
      },
    });
    await proxy.send({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: {
        name: 'book',
        arguments: { a: 1 },
        inputResponses: { date: {} },
        requestState: 'abc',
      },
    });
    transport.deliver({ jsonrpc: '2.0', id: 2, result: { content: [], isError: false } });
    expect(events).toEqual([
      { kind: 'call-sent', name: 'book', arguments: { a: 1 }, answered: [] },
      {
        kind: 'input-required',
        requests: [{ key: 'date', method: 'elicitation/create' }],
        stateLength: 3,
      },
      { kind: 'call-sent', name: 'book', arguments: { a: 1 }, answered: ['date'], stateLength: 3 },
      { kind: 'result', isError: false },
    ]);
    expect(transport.sent).toHaveLength(2);
    expect(handled).toHaveLength(2); // the client still gets every message
    expect(proxy.secret()).toBe('private fields must keep working through the proxy');
  });

  it('reports a 2025 call: the server’s request inside it and the client’s answer', async () => {
    const { events, transport, proxy } = watched();
    await proxy.send({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'book', arguments: {} },
    });
    transport.deliver({ jsonrpc: '2.0', id: 0, method: 'elicitation/create', params: {} });
    await proxy.send({ jsonrpc: '2.0', id: 0, result: { action: 'accept', content: {} } });
    transport.deliver({ jsonrpc: '2.0', id: 7, error: { code: -32602, message: 'bad state' } });
    expect(events.map((event) => event.kind)).toEqual([
      'call-sent',
      'server-request',
      'server-request-answered',
      'error',
    ]);
    expect(events[2]).toEqual({
      kind: 'server-request-answered',
      method: 'elicitation/create',
      action: 'accept',
    });
  });

  it('ignores everything that is not a tool call', async () => {
    const { events, transport, proxy } = watched();
    await proxy.send({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
    transport.deliver({ jsonrpc: '2.0', id: 1, result: { tools: [] } });
    transport.deliver({ jsonrpc: '2.0', method: 'notifications/progress', params: {} });
    expect(events).toEqual([]);
  });
});
