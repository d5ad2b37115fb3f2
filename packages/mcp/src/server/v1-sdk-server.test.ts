import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createExecutor } from '@mtpx/executor';
import { type Message, toolMessageFromResult } from '@mtpx/protocol';
import { scriptedProvider } from '@mtpx/providers/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { listAllTools } from '../client/mcp-client';
import { mcpTools } from '../client/mcp-tools';

/** A 2025-era server as most are built today: `@modelcontextprotocol/sdk` 1.x with zod shapes. */
function shopServer(): McpServer {
  const server = new McpServer({ name: 'shop', version: '1.0.0' });
  server.registerTool(
    'confirm_order',
    {
      description: 'Confirms an order.',
      inputSchema: { orderId: z.string(), quantity: z.number().int().min(1) },
      annotations: { destructiveHint: false },
    },
    ({ orderId, quantity }) => ({
      content: [{ type: 'text', text: `Order ${orderId} confirmed (${quantity}).` }],
    }),
  );
  server.registerTool(
    'find_product',
    {
      description: 'Finds products by name.',
      inputSchema: { query: z.string().min(2), tags: z.array(z.enum(['new', 'sale'])).optional() },
      outputSchema: { matches: z.array(z.string()) },
      annotations: { readOnlyHint: true },
    },
    ({ query }) => {
      const structuredContent = { matches: [`${query} lamp`] };
      return {
        content: [{ type: 'text', text: JSON.stringify(structuredContent) }],
        structuredContent,
      };
    },
  );
  server.registerTool('ping', { description: 'Answers pong.' }, () => ({
    content: [{ type: 'text', text: 'pong' }],
  }));
  return server;
}

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((item) => item.close()));
});

async function connectToShop() {
  const server = shopServer();
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new LegacyClient({ name: 'agent', version: '1.0.0' });
  await client.connect(clientSide);
  open.push(client, server);
  return client;
}

describe('tools of a @modelcontextprotocol/sdk 1.x server with zod shapes', () => {
  it('regression: draft-07 input schemas ("$schema": draft-07) are callable through mcpTools', async () => {
    const client = await connectToShop();
    const listed = await listAllTools(client);
    const confirm = listed.find((tool) => tool.name === 'confirm_order');
    // What made every such tool uncallable: the 2020-12 validator did not know this meta-schema.
    expect(confirm?.inputSchema.$schema).toBe('http://json-schema.org/draft-07/schema#');

    const tools = await mcpTools(client, { prefix: 'shop.' });
    expect(tools.map((tool) => [tool.name, tool.risk_level])).toEqual([
      ['shop.confirm_order', 'write'],
      ['shop.find_product', 'read_only'],
      ['shop.ping', 'destructive'],
    ]);
    const executor = createExecutor({ tools, policy: { defaults: { destructive: 'allow' } } });
    const provider = scriptedProvider([
      {
        toolCalls: [
          { id: 'call_1', name: 'shop.confirm_order', arguments: { orderId: 'A7', quantity: 2 } },
          { id: 'call_2', name: 'shop.find_product', arguments: { query: 'desk', tags: ['new'] } },
          { id: 'call_3', name: 'shop.ping', arguments: {} },
          { id: 'call_4', name: 'shop.confirm_order', arguments: { orderId: 'A8', quantity: 0 } },
        ],
      },
      { text: 'Done.' },
    ]);

    const messages: Message[] = [{ role: 'user', content: 'Confirm A7, find desks, ping.' }];
    for (;;) {
      const turn = await provider.generate({ messages, tools: executor.registry.list() });
      messages.push(turn.message);
      const calls = turn.message.tool_calls ?? [];
      if (calls.length === 0) break;
      const results = await executor.executeToolCalls(calls);
      messages.push(...results.map(toolMessageFromResult));
    }

    const answers = messages.filter((message) => message.role === 'tool');
    expect(answers.slice(0, 3).map((message) => message.content)).toEqual([
      'Order A7 confirmed (2).',
      '{"matches":["desk lamp"]}',
      'pong',
    ]);
    // The draft-07 schema is enforced, not skipped: quantity 0 breaks `minimum: 1`.
    expect(answers[3]?.content).toMatch(/Invalid arguments for "shop\.confirm_order".*quantity/);
    expect(messages.at(-1)).toMatchObject({ role: 'assistant', content: 'Done.' });
  });
});
