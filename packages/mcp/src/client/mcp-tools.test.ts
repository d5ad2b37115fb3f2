import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { createExecutor, defineTool, ToolRegistry } from '@mtpx/executor';
import { scriptedProvider } from '@mtpx/providers/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type McpHttpServer, serveMcp } from '../http/serve-mcp';
import { createMcpServer } from '../server/create-mcp-server';
import { bookTool, greetTool, haikuTool, rootsTool } from '../test-support/tools';
import type { ElicitationAnswer, ElicitHandler } from './input-handlers';
import { mcpClientCapabilities, mcpClientOptions } from './mcp-client';
import { mcpTools } from './mcp-tools';

const remote = createMcpServer({
  name: 'remote',
  version: '1.0.0',
  tools: [
    greetTool,
    bookTool,
    haikuTool,
    rootsTool,
    defineTool({
      name: 'add',
      description: 'Adds',
      input_schema: z.object({ a: z.number(), b: z.number() }),
      execute: ({ a, b }) => a + b,
    }),
    defineTool({
      name: 'explode',
      description: 'Fails',
      input_schema: z.object({}),
      risk_level: 'write',
      execute: () => {
        throw new Error('kaboom');
      },
    }),
  ],
});

let http: McpHttpServer;
beforeAll(async () => {
  http = await serveMcp(remote, { port: 0 });
});
afterAll(async () => {
  await http.close();
});

const user: ElicitHandler = (params): ElicitationAnswer => {
  if (params.mode === 'url') return { action: 'accept' };
  const fields = Object.keys(params.requestedSchema.properties);
  if (fields.includes('name')) return { action: 'accept', content: { name: 'Ada' } };
  if (fields.includes('date')) return { action: 'accept', content: { date: '2026-12-24' } };
  return { action: 'accept', content: { confirm: true } };
};

const clients = [
  [
    '2026-07-28 (v2 Client)',
    async () => {
      const client = new Client(
        { name: 'importer', version: '1.0.0' },
        mcpClientOptions({ era: '2026', elicit: true, sample: true, roots: true }),
      );
      await client.connect(new StreamableHTTPClientTransport(http.url));
      return client;
    },
  ],
  [
    '2025 (v1 Client)',
    async () => {
      const client = new LegacyClient(
        { name: 'importer', version: '1.0.0' },
        { capabilities: mcpClientCapabilities({ elicit: true, sample: true, roots: true }) },
      );
      await client.connect(new LegacyHttpTransport(http.url));
      return client;
    },
  ],
] as const;

describe.each(clients)('mcpTools with a %s', (_era, connect) => {
  it('imports the tools, prefixed, with their schemas and risk levels', async () => {
    const client = await connect();
    const registry = new ToolRegistry();
    const tools = await mcpTools(client, { prefix: 'remote.', registry });
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'remote.add',
      'remote.book_table',
      'remote.explode',
      'remote.greet',
      'remote.haiku',
      'remote.list_roots',
    ]);
    expect(registry.get('remote.add')).toMatchObject({
      description: 'Adds',
      risk_level: 'read_only',
      input_schema: {
        type: 'object',
        properties: { a: { type: 'number' }, b: { type: 'number' } },
      },
    });
    expect(registry.get('remote.explode')?.risk_level).toBe('write');
    await client.close();
  });

  it('runs calls over MCP, fulfilling input requests mid-call with the handlers', async () => {
    const client = await connect();
    const provider = scriptedProvider([{ text: 'Leaves fall' }]);
    const tools = await mcpTools(client, {
      elicit: user,
      sample: provider,
      roots: [{ uri: 'file:///projects', name: 'projects' }],
    });
    const executor = createExecutor({ tools });
    const results = await executor.executeToolCalls([
      { id: 'call_1', name: 'greet', arguments: {} },
      { id: 'call_2', name: 'book_table', arguments: { party: 3 } },
      { id: 'call_3', name: 'haiku', arguments: { topic: 'autumn' } },
      { id: 'call_4', name: 'list_roots', arguments: {} },
      { id: 'call_5', name: 'add', arguments: { a: 1, b: { $ref: 'call_6' } } },
      { id: 'call_6', name: 'add', arguments: { a: 2, b: 3 } },
    ]);
    expect(results.map((result) => result.output)).toEqual([
      'Hello, Ada!',
      { booked: true, party: 3, date: '2026-12-24' },
      { haiku: 'Leaves fall', model: 'scripted' },
      ['file:///projects'],
      6,
      5,
    ]);
    await client.close();
  });

  it('turns isError results and protocol errors into error results', async () => {
    const client = await connect();
    const tools = await mcpTools(client, { elicit: user });
    const executor = createExecutor({ tools });
    const [exploded, schemaless] = await executor.executeToolCalls([
      { id: 'call_1', name: 'explode', arguments: {} },
      { id: 'call_2', name: 'add', arguments: { a: 1, b: 'two' } },
    ]);
    expect(exploded).toMatchObject({ success: false, error_code: 'tool_error' });
    expect(exploded?.error).toMatch(/kaboom/);
    expect(schemaless).toMatchObject({ success: false, error_code: 'invalid_arguments' });
    await client.close();
  });
});

describe('mcpTools risk levels', () => {
  it('reads MCP annotations, treating a tool without hints as destructive', async () => {
    const foreign = createMcpHandler(() => {
      const server = new McpServer({ name: 'foreign', version: '1.0.0' });
      server.registerTool(
        'unhinted',
        { description: 'No hints', inputSchema: z.object({}) },
        () => ({
          content: [{ type: 'text', text: '12' }],
        }),
      );
      return server;
    });
    const client = new Client({ name: 'importer', version: '1.0.0' }, mcpClientOptions());
    await client.connect(
      new StreamableHTTPClientTransport(new URL('http://foreign.test/mcp'), {
        fetch: (input, init) => foreign.fetch(new Request(input, init)),
      }),
    );
    const [unhinted] = await mcpTools(client);
    expect(unhinted?.risk_level).toBe('destructive');
    const [overridden] = await mcpTools(client, { riskLevel: () => 'read_only' });
    expect(overridden?.risk_level).toBe('read_only');
    const [result] = await createExecutor({ tools: [overridden as never] }).executeToolCalls([
      { id: 'call_1', name: 'unhinted', arguments: {} },
    ]);
    expect(result?.output).toBe('12');
    await client.close();
    await foreign.close();

    const ours = await clients[0][1]();
    const tools = await mcpTools(ours, {
      filter: (tool) => ['add', 'explode'].includes(tool.name),
    });
    expect(tools.map((tool) => [tool.name, tool.risk_level]).sort()).toEqual([
      ['add', 'read_only'],
      ['explode', 'write'],
    ]);
    await ours.close();
  });
});
