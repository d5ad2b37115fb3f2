import { Client } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { scriptedProvider } from '@mtpx/providers/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type McpHttpServer, serveMcp } from '../http/serve-mcp';
import { connectLegacyClient, connectModernClient, firstText } from '../test-support/clients';
import { testServer } from '../test-support/server';
import { installInputHandlers } from './input-handlers';
import { mcpClientCapabilities, mcpClientOptions } from './mcp-client';
import { samplingFromProvider } from './provider-sampling';

let http: McpHttpServer;
beforeAll(async () => {
  http = await serveMcp(testServer(), { port: 0 });
});
afterAll(async () => {
  await http.close();
});

describe('installInputHandlers', () => {
  it.each([
    ['v2 (2026-07-28)', () => connectModernClient(http.url, { declare: ['elicitation', 'roots'] })],
    ['v1 (2025)', () => connectLegacyClient(http.url, { declare: ['elicitation', 'roots'] })],
  ] as const)('fulfils elicitation and roots on a %s client', async (_era, connect) => {
    const client = await connect();
    const asked: unknown[] = [];
    await installInputHandlers(client, {
      elicit: (params) => {
        asked.push(params);
        return { action: 'accept', content: { name: 'Mo' } };
      },
      roots: async () => [{ uri: 'file:///repo', name: 'repo' }],
    });
    expect(firstText(await client.callTool({ name: 'greet', arguments: {} }))).toBe('Hello, Mo!');
    expect(firstText(await client.callTool({ name: 'list_roots', arguments: {} }))).toBe(
      '["file:///repo"]',
    );
    expect(asked).toEqual([
      expect.objectContaining({ mode: 'form', message: 'What is your name?' }),
    ]);
    await client.close();
  });

  it('says how to declare a capability the client lacks', async () => {
    const modern = new Client({ name: 'c', version: '1' });
    const legacy = new LegacyClient({ name: 'c', version: '1' });
    for (const client of [modern, legacy]) {
      await expect(
        installInputHandlers(client, {
          sample: () => ({ role: 'assistant', content: { type: 'text', text: '' }, model: 'm' }),
        }),
      ).rejects.toMatchObject({
        code: 'handler_not_configured',
        message: expect.stringContaining('mcpClientCapabilities({ sample: true })'),
      });
    }
    await expect(installInputHandlers(modern, {})).resolves.toBeUndefined();
  });
});

describe('client options', () => {
  it('declares the capabilities for the handlers and pins the era', () => {
    expect(mcpClientCapabilities({ elicit: true, roots: true })).toEqual({
      elicitation: { form: {}, url: {} },
      roots: {},
    });
    expect(mcpClientOptions({ sample: true })).toEqual({
      capabilities: { sampling: {} },
      versionNegotiation: { mode: { pin: '2026-07-28' } },
    });
    expect(mcpClientOptions({ era: '2025' }).versionNegotiation).toEqual({ mode: 'legacy' });
    expect(mcpClientOptions({ era: 'auto' }).versionNegotiation).toEqual({ mode: 'auto' });
  });
});

describe('samplingFromProvider', () => {
  it("answers with the provider's text, model and stop reason", async () => {
    const provider = scriptedProvider([{ text: 'Blue.' }]);
    const sample = samplingFromProvider(provider);
    const answer = await sample(
      {
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Colour?' },
              { type: 'image', data: 'x' },
            ],
          },
          { role: 'assistant', content: { type: 'text', text: 'Which one?' } },
          { role: 'user', content: { type: 'text', text: 'Any.' } },
        ],
        maxTokens: 10,
      },
      { signal: new AbortController().signal },
    );
    expect(answer).toEqual({
      role: 'assistant',
      content: { type: 'text', text: 'Blue.' },
      model: 'scripted',
      stopReason: 'endTurn',
    });
    expect(provider.requests[0]?.messages).toEqual([
      { role: 'user', content: 'Colour?\n[image]' },
      { role: 'assistant', content: 'Which one?' },
      { role: 'user', content: 'Any.' },
    ]);
    expect(provider.requests[0]?.tools).toEqual([]);
  });
});
