import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createExecutor, type Executor } from '@mtpx/executor';
import { type Message, type Provider, toolMessageFromResult } from '@mtpx/protocol';
import { scriptedProvider } from '@mtpx/providers/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ElicitationAnswer, ElicitationParams } from './client/input-handlers';
import { type McpClient, mcpClientCapabilities, mcpClientOptions } from './client/mcp-client';
import { mcpTools } from './client/mcp-tools';
import { type McpHttpServer, serveMcp } from './http/serve-mcp';
import { createMcpServer } from './server/create-mcp-server';
import { bookTool, greetTool } from './test-support/tools';

/**
 * The smallest MTP agent: ask the model, run the native tool calls of its answer with the
 * executor, send the results back, until it answers in text.
 */
async function runAgent(provider: Provider, executor: Executor, prompt: string) {
  const messages: Message[] = [{ role: 'user', content: prompt }];
  for (let round = 0; round < 5; round += 1) {
    const turn = await provider.generate({ messages, tools: executor.registry.list() });
    messages.push(turn.message);
    const calls = turn.message.tool_calls ?? [];
    if (calls.length === 0) return { answer: turn.message.content, messages };
    const results = await executor.executeToolCalls(calls);
    messages.push(...results.map(toolMessageFromResult));
  }
  throw new Error('the agent did not finish');
}

let http: McpHttpServer;
beforeAll(async () => {
  http = await serveMcp(
    createMcpServer({ name: 'restaurant', version: '1.0.0', tools: [greetTool, bookTool] }),
    { port: 0 },
  );
});
afterAll(async () => {
  await http.close();
});

const connections: Array<[string, () => Promise<McpClient & { close(): Promise<void> }>]> = [
  [
    '2026-07-28 (v2 client)',
    async () => {
      const client = new Client(
        { name: 'agent', version: '1.0.0' },
        mcpClientOptions({ elicit: true }),
      );
      await client.connect(new StreamableHTTPClientTransport(http.url));
      return client;
    },
  ],
  [
    '2025 (v1 client)',
    async () => {
      const client = new LegacyClient(
        { name: 'agent', version: '1.0.0' },
        { capabilities: mcpClientCapabilities({ elicit: true }) },
      );
      await client.connect(new LegacyHttpTransport(http.url));
      return client;
    },
  ],
];

describe.each(connections)('an MTP agent over a %s', (_era, connect) => {
  it('uses MCP tools that ask the user for input mid-call', async () => {
    const client = await connect();
    const asked: string[] = [];
    const user = (params: ElicitationParams): ElicitationAnswer => {
      asked.push(params.message);
      if (params.message === 'What is your name?')
        return { action: 'accept', content: { name: 'Ada' } };
      if (params.message.startsWith('Which date')) {
        return { action: 'accept', content: { date: '2026-12-24' } };
      }
      return { action: 'accept', content: { confirm: true } };
    };
    const tools = await mcpTools(client, { prefix: 'restaurant.', elicit: user });
    const executor = createExecutor({ tools, policy: { defaults: { destructive: 'allow' } } });
    const provider = scriptedProvider([
      {
        toolCalls: [
          { id: 'call_1', name: 'restaurant.greet', arguments: {} },
          { id: 'call_2', name: 'restaurant.book_table', arguments: { party: 4 } },
        ],
      },
      { text: 'Hello Ada — your table for 4 is booked on 2026-12-24.' },
    ]);

    const { answer, messages } = await runAgent(
      provider,
      executor,
      'Greet me and book a table for 4.',
    );

    expect(answer).toBe('Hello Ada — your table for 4 is booked on 2026-12-24.');
    expect(asked.sort()).toEqual(
      ['Book a table for 4 on 2026-12-24?', 'What is your name?', 'Which date for 4?'].sort(),
    );
    expect(provider.requests[0]?.tools.map((tool) => tool.name).sort()).toEqual([
      'restaurant.book_table',
      'restaurant.greet',
    ]);
    expect(messages.filter((message) => message.role === 'tool')).toEqual([
      { role: 'tool', tool_call_id: 'call_1', name: 'restaurant.greet', content: 'Hello, Ada!' },
      {
        role: 'tool',
        tool_call_id: 'call_2',
        name: 'restaurant.book_table',
        content: '{"booked":true,"party":4,"date":"2026-12-24"}',
      },
    ]);
    await client.close();
  });
});
