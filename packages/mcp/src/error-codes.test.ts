import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { JSON_RPC_CODES } from './errors';
import { createMcpHttpHandler, type McpHttpHandler } from './http/http-handler';
import { type McpHttpServer, serveMcp } from './http/serve-mcp';
import {
  connectLegacyClient,
  connectModernClient,
  type RawExchange,
  rawModernRequest,
} from './test-support/clients';
import { testServer } from './test-support/server';

const elicitation = { elicitation: {} };
const accept = (content: Record<string, unknown>) => ({ action: 'accept', content });

let handler: McpHttpHandler;
let refusals: string[];
beforeEach(() => {
  refusals = [];
  handler = createMcpHttpHandler(
    testServer({ stateTtlSeconds: 60, onError: (error) => refusals.push(error.message) }),
  );
});
afterEach(async () => {
  vi.useRealTimers();
  await handler.close();
});

const call = (
  params: Record<string, unknown>,
  capabilities: Record<string, unknown> = elicitation,
) => rawModernRequest((request) => handler.fetch(request), 'tools/call', params, { capabilities });

/** Round 1 of `book_table`: the date request and the state to echo. */
async function firstRound(party = 2) {
  const { body } = await call({ name: 'book_table', arguments: { party } });
  expect(body.result?.resultType).toBe('input_required');
  return body.result?.requestState as string;
}

function expectInvalidParams(exchange: RawExchange) {
  expect(exchange.body.error?.code).toBe(JSON_RPC_CODES.invalidParams);
  return exchange.body.error;
}

describe('request state integrity (-32602)', () => {
  it('accepts the state it minted, bound to the same call', async () => {
    const requestState = await firstRound();
    const { body } = await call({
      name: 'book_table',
      arguments: { party: 2 },
      requestState,
      inputResponses: { date: accept({ date: '2026-12-24' }) },
    });
    expect(body.result?.resultType).toBe('input_required');
    expect(Object.keys(body.result?.inputRequests ?? {})).toEqual(['confirm']);
  });

  it('refuses a tampered state', async () => {
    const requestState = await firstRound();
    const [payload, signature] = requestState.split('.') as [string, string];
    const forged = Buffer.from(
      Buffer.from(payload, 'base64url').toString().replace('"r":2', '"r":3'),
    ).toString('base64url');
    for (const tampered of [
      `${forged}.${signature}`,
      `${payload}.${signature.slice(1)}x`,
      'garbage',
    ]) {
      const error = expectInvalidParams(
        await call({
          name: 'book_table',
          arguments: { party: 2 },
          requestState: tampered,
          inputResponses: { date: accept({ date: '2026-12-24' }) },
        }),
      );
      expect(error).toMatchObject({
        message: 'Invalid or expired requestState',
        data: { reason: 'invalid_request_state' },
      });
    }
    expect(refusals).toEqual([
      expect.stringMatching(/signature$/),
      expect.stringMatching(/signature$/),
      expect.stringMatching(/malformed$/),
    ]);
  });

  it('refuses an expired state', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const requestState = await firstRound();
    vi.setSystemTime(Date.now() + 61_000);
    expectInvalidParams(
      await call({
        name: 'book_table',
        arguments: { party: 2 },
        requestState,
        inputResponses: { date: accept({ date: '2026-12-24' }) },
      }),
    );
    expect(refusals).toEqual([expect.stringMatching(/expired$/)]);
  });

  it('refuses a state minted for other arguments or another tool', async () => {
    const requestState = await firstRound(2);
    expectInvalidParams(await call({ name: 'book_table', arguments: { party: 3 }, requestState }));
    expectInvalidParams(await call({ name: 'greet', arguments: {}, requestState }));
    expect(refusals).toEqual([
      expect.stringMatching(/book_table: foreign$/),
      expect.stringMatching(/greet: foreign$/),
    ]);
  });

  it('refuses a state signed with another key', async () => {
    const other = createMcpHttpHandler(testServer());
    const { body } = await rawModernRequest(
      (request) => other.fetch(request),
      'tools/call',
      { name: 'book_table', arguments: { party: 2 } },
      { capabilities: elicitation },
    );
    await other.close();
    expectInvalidParams(
      await call({
        name: 'book_table',
        arguments: { party: 2 },
        requestState: body.result?.requestState,
      }),
    );
  });
});

describe('input responses', () => {
  it('asks again for missing responses, keeping the ones that arrived', async () => {
    const first = await call({ name: 'profile', arguments: {} });
    expect(Object.keys(first.body.result?.inputRequests ?? {})).toEqual(['name', 'city']);

    const none = await call({
      name: 'profile',
      arguments: {},
      requestState: first.body.result?.requestState,
    });
    expect(none.body.result?.inputRequests).toEqual(first.body.result?.inputRequests);

    const half = await call({
      name: 'profile',
      arguments: {},
      requestState: none.body.result?.requestState,
      inputResponses: { name: accept({ name: 'Ada' }), unknown: { anything: true } },
    });
    expect(Object.keys(half.body.result?.inputRequests ?? {})).toEqual(['city']);

    const done = await call({
      name: 'profile',
      arguments: {},
      requestState: half.body.result?.requestState,
      inputResponses: { city: accept({ city: 'London' }) },
    });
    expect(done.body.result?.content).toEqual([{ type: 'text', text: 'Ada from London' }]);
  });

  it.each([
    ['not an object', 'yes'],
    ['an unknown action', { action: 'maybe' }],
    ['content that breaks the requested schema', accept({ date: 42 })],
    ['a missing required field', accept({})],
    [
      'a wrapped {method, result} entry',
      { method: 'elicitation/create', result: accept({ date: '2026-01-01' }) },
    ],
  ])('refuses a malformed response: %s', async (_case, response) => {
    const requestState = await firstRound();
    const error = expectInvalidParams(
      await call({
        name: 'book_table',
        arguments: { party: 2 },
        requestState,
        inputResponses: { date: response },
      }),
    );
    expect(error?.data).toMatchObject({ reason: 'invalid_input_response', key: 'date' });
  });

  it('refuses a malformed sampling or roots response', async () => {
    const sampling = await call({ name: 'haiku', arguments: { topic: 'x' } }, { sampling: {} });
    expectInvalidParams(
      await call(
        {
          name: 'haiku',
          arguments: { topic: 'x' },
          requestState: sampling.body.result?.requestState,
          inputResponses: { poem: { role: 'assistant', content: { type: 'text', text: 'hi' } } },
        },
        { sampling: {} },
      ),
    );
    const roots = await call({ name: 'list_roots', arguments: {} }, { roots: {} });
    expectInvalidParams(
      await call(
        {
          name: 'list_roots',
          arguments: {},
          requestState: roots.body.result?.requestState,
          inputResponses: { roots: { roots: [{ name: 'no uri' }] } },
        },
        { roots: {} },
      ),
    );
  });
});

describe('answers sent in advance (SEP-2322: servers need not keep state)', () => {
  it('regression: a first call that already answers what the tool asks completes, extra keys ignored', async () => {
    const { body } = await call({
      name: 'greet',
      arguments: {},
      inputResponses: { name: accept({ name: 'Alice' }), unknown_extra_key: accept({ foo: 1 }) },
    });
    expect(body.result?.content).toEqual([{ type: 'text', text: 'Hello, Alice!' }]);
  });

  it('asks as usual when an advance answer is missing or malformed', async () => {
    const malformed = await call({
      name: 'greet',
      arguments: {},
      inputResponses: { name: 12345 },
    });
    expect(malformed.body.result?.resultType).toBe('input_required');
    const wrongKey = await call({
      name: 'greet',
      arguments: {},
      inputResponses: { nickname: accept({ name: 'Al' }) },
    });
    expect(Object.keys(wrongKey.body.result?.inputRequests ?? {})).toEqual(['name']);
  });
});

describe('client capabilities (-32021)', () => {
  it('refuses to ask a raw 2026-07-28 client for input it did not declare', async () => {
    const exchange = await call({ name: 'greet', arguments: {} }, {});
    expect(exchange.body.error).toMatchObject({
      code: JSON_RPC_CODES.missingClientCapability,
      data: { requiredCapabilities: { elicitation: { form: {} } } },
    });
    const url = await call({ name: 'sign_in', arguments: {} }, { elicitation: { form: {} } });
    expect(url.body.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { elicitation: { url: {} } } },
    });
  });

  describe('with real clients', () => {
    let http: McpHttpServer;
    beforeEach(async () => {
      http = await serveMcp(testServer(), { port: 0 });
    });
    afterEach(async () => {
      await http.close();
    });

    it('answers -32021 to the v2 client (2026-07-28) that declared no sampling', async () => {
      const client = await connectModernClient(http.url, { elicit: () => ({ action: 'cancel' }) });
      await expect(
        client.callTool({ name: 'haiku', arguments: { topic: 'x' } }),
      ).rejects.toMatchObject({
        code: -32021,
        data: { requiredCapabilities: { sampling: {} } },
      });
      await client.close();
    });

    it('answers -32021 to the v1 client (2025 era) that declared no roots', async () => {
      const client = await connectLegacyClient(http.url, {});
      await expect(client.callTool({ name: 'list_roots', arguments: {} })).rejects.toMatchObject({
        code: -32021,
      });
      await client.close();
    });
  });
});

describe('protocol versions (-32022)', () => {
  it('answers an unsupported version with the supported and requested ones', async () => {
    const exchange = await rawModernRequest(
      (request) => handler.fetch(request),
      'tools/list',
      {},
      { protocolVersion: '2099-01-01' },
    );
    expect(exchange.body.error).toMatchObject({
      code: JSON_RPC_CODES.unsupportedProtocolVersion,
      data: { supported: ['2026-07-28'], requested: '2099-01-01' },
    });
  });
});

describe('unknown tools', () => {
  it('answers -32602', async () => {
    const exchange = await call({ name: 'nope', arguments: {} });
    expect(exchange.body.error).toMatchObject({ code: -32602, message: 'Unknown tool: nope' });
  });
});
