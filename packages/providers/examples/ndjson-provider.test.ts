import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ProviderEvent } from '@mtpx/protocol';
import { ProviderError } from '@mtpx/providers';
import { afterEach, describe, expect, it } from 'vitest';
import { createNdjsonProvider } from './ndjson-provider';

let server: Server | undefined;
afterEach(
  () => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())),
);

/** A local NDJSON model server on 127.0.0.1:0 that writes `lines`, one chunk each. */
async function serve(lines: readonly object[], end = true): Promise<string> {
  server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/x-ndjson' });
    for (const line of lines) response.write(`${JSON.stringify(line)}\n`);
    if (end) response.end();
    else response.destroy();
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const request = {
  messages: [{ role: 'user' as const, content: 'What is 18 − 6, times 4?' }],
  tools: [],
};

describe('the NDJSON provider of the guide', () => {
  it('reports each call ready as soon as the next begins, then finishes the turn', async () => {
    const baseURL = await serve([
      { type: 'call', index: 0, id: 'call_1', name: 'calculator.subtract', arguments: '{"a":18,' },
      { type: 'call', index: 0, arguments: '"b":6}' },
      {
        type: 'call',
        index: 1,
        id: 'call_2',
        name: 'calculator.multiply',
        arguments: '{"a":4,"b":{"$ref":"call_1"}}',
      },
      { type: 'done', stop: 'tool_calls', usage: { input: 12, output: 9 } },
    ]);
    const events: ProviderEvent[] = [];
    for await (const event of createNdjsonProvider({ baseURL, model: 'm' }).stream(request))
      events.push(event);
    const kinds = events.map((event) =>
      event.type === 'tool-call-ready' ? `ready ${event.toolCall.id}` : event.type,
    );
    // call_1 is ready the moment call_2 begins; call_2 when the turn is done.
    expect(kinds).toEqual([
      'tool-call-delta',
      'tool-call-delta',
      'tool-call-delta',
      'ready call_1',
      'ready call_2',
      'usage',
      'finish',
    ]);
    const finish = events.at(-1);
    expect(finish?.type === 'finish' && finish.turn).toMatchObject({
      finishReason: 'tool_calls',
      usage: { totalTokens: 21 },
      message: { tool_calls: [{ id: 'call_1', arguments: { a: 18, b: 6 } }, { id: 'call_2' }] },
    });
  });

  it('throws stream_interrupted when the stream breaks, so no unfinished call runs', async () => {
    const baseURL = await serve(
      [{ type: 'call', index: 0, id: 'call_1', name: 'calculator.add', arguments: '{"a":' }],
      false,
    );
    const provider = createNdjsonProvider({ baseURL, model: 'm' });
    const error = await provider.generate(request).catch((caught: unknown) => caught);
    expect(ProviderError.isInstance(error)).toBe(true);
  });

  it('names the URL it could not reach', async () => {
    const provider = createNdjsonProvider({ baseURL: 'http://127.0.0.1:9', model: 'm' });
    await expect(provider.generate(request)).rejects.toThrow(
      /could not reach http:\/\/127\.0\.0\.1:9/,
    );
  });
});
