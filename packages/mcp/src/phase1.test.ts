import { afterEach, describe, expect, it } from 'vitest';
import { formElicitation } from './input-requests';
import { toolServerFromDefinition } from './mcp-tool-server';
import { createStateSigner } from './request-state';
import { complete, inputRequired, type RoundHook } from './round-result';
import { servedToolFromHook } from './served-tool';
import { type McpHttpServer, serveMcp } from './serve-mcp';
import { connectLegacyClient, connectModernClient, firstText } from './test-clients';

const greet: RoundHook<Record<string, unknown>, unknown> = (_args, context) => {
  const answer = context.accepted('name');
  if (answer === undefined) {
    return inputRequired({
      name: formElicitation('What is your name?', {
        type: 'object',
        properties: { name: { type: 'string' } },
        required: ['name'],
      }),
    });
  }
  return complete(`Hello, ${answer.name}!`);
};

const server = toolServerFromDefinition({
  name: 'phase1',
  version: '1.0.0',
  tools: [servedToolFromHook({ name: 'greet', inputSchema: { type: 'object' } }, greet)],
  prompts: [],
  resources: [],
  signer: createStateSigner(),
});

let http: McpHttpServer | undefined;
afterEach(async () => {
  await http?.close();
  http = undefined;
});

describe('phase 1 smoke', () => {
  it('greets a 2026-07-28 client and a 2025 client from one hook', async () => {
    http = await serveMcp(server, { port: 0 });
    const modern = await connectModernClient(http.url, {
      elicit: () => ({ action: 'accept', content: { name: 'Ada' } }),
    });
    const legacy = await connectLegacyClient(http.url, {
      elicit: () => ({ action: 'accept', content: { name: 'Ada' } }),
    });
    const modernResult = await modern.callTool({ name: 'greet', arguments: {} });
    const legacyResult = await legacy.callTool({ name: 'greet', arguments: {} });
    expect(firstText(modernResult)).toBe('Hello, Ada!');
    expect(firstText(legacyResult)).toBe('Hello, Ada!');
    await modern.close();
    await legacy.close();
  });
});
