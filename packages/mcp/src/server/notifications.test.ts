import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { createExecutor, defineTool, type ExecutorEvent, ToolRegistry } from '@mtpx/executor';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { McpLogEntry } from '../client/client-notifications';
import { mcpTools } from '../client/mcp-tools';
import { defineMcpResource } from '../definitions/mcp-resource';
import { defineMcpTool } from '../definitions/mcp-tool';
import { type McpHttpServer, serveMcp } from '../http/serve-mcp';
import { complete } from '../input/input-round';
import { connectLegacyClient, connectModernClient } from '../test-support/clients';
import { createMcpServer } from './create-mcp-server';
import type { McpToolServer } from './mcp-tool-server';

const chatty = defineMcpTool({
  name: 'chatty',
  description: 'Logs while it works.',
  input_schema: z.object({}),
  inputRound: async (_args, context) => {
    await context.log('debug', 'too detailed');
    await context.log('info', { step: 'working' }, 'chatty');
    return complete('done');
  },
});

const later = defineTool({
  name: 'later',
  description: 'Registered after the client connected.',
  input_schema: z.object({}),
  execute: () => 'here now',
});

function serverWith(registry: ToolRegistry): McpToolServer {
  return createMcpServer({
    name: 'notifier',
    version: '1.0.0',
    tools: registry,
    resources: ['a', 'b'].map((name) =>
      defineMcpResource({ uri: `feed://${name}`, name, read: () => name }),
    ),
  });
}

let http: McpHttpServer | undefined;
afterEach(async () => {
  await http?.close();
  http = undefined;
});

describe.each([
  ['2026-07-28 (v2 client)', connectModernClient],
  ['2025 (v1 client)', connectLegacyClient],
] as const)('notifications for a %s', (_era, connect) => {
  it('server logs reach onLog and the call in flight as a progress event, at the asked level', async () => {
    http = await serveMcp(serverWith(new ToolRegistry([chatty])), { port: 0 });
    const client = await connect(http.url);
    const logs: McpLogEntry[] = [];
    const tools = await mcpTools(client, { logLevel: 'info', onLog: (entry) => logs.push(entry) });
    const events: ExecutorEvent[] = [];
    const [result] = await createExecutor({ tools }).executeToolCalls(
      [{ id: 'call_1', name: 'chatty', arguments: {} }],
      { onEvent: (event) => void events.push(event) },
    );
    expect(result?.output).toBe('done');
    expect(logs).toEqual([{ level: 'info', data: { step: 'working' }, logger: 'chatty' }]);
    const progress = events.filter((event) => event.type === 'call-progress');
    expect(
      progress.map((event) => event.type === 'call-progress' && event.progress.message),
    ).toEqual(['info (chatty): {"step":"working"}']);
    await client.close();
  });

  it('re-lists the tools when the server says its list changed; the registry follows', async () => {
    const served = new ToolRegistry([chatty]);
    const server = serverWith(served);
    http = await serveMcp(server, { port: 0 });
    const client = await connect(http.url);
    const registry = new ToolRegistry();
    const changed = new Promise<string[]>((resolve) => {
      void mcpTools(client, {
        registry,
        onToolsChanged: (tools) => resolve(tools.map((tool) => tool.name)),
      }).then(() => {
        served.register(later);
        server.notify.toolsChanged();
      });
    });
    expect(await changed).toEqual(['chatty', 'later']);
    expect(registry.list().map((spec) => spec.name)).toEqual(['chatty', 'later']);
    const [result] = await createExecutor({ tools: registry }).executeToolCalls([
      { id: 'call_1', name: 'later', arguments: {} },
    ]);
    expect(result?.output).toBe('here now');
    await client.close();
  });
});

describe('resource subscriptions (2025 era)', () => {
  it('sends notifications/resources/updated for subscribed URIs only, until unsubscribed', async () => {
    const server = serverWith(new ToolRegistry([chatty]));
    http = await serveMcp(server, { port: 0 });
    const client = await connectLegacyClient(http.url);
    const updated: string[] = [];
    let sawB: () => void = () => undefined;
    const bArrived = new Promise<void>((resolve) => {
      sawB = resolve;
    });
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
      updated.push(notification.params.uri);
      if (notification.params.uri === 'feed://b') sawB();
    });
    await client.subscribeResource({ uri: 'feed://a' });
    await client.subscribeResource({ uri: 'feed://b' });
    await client.unsubscribeResource({ uri: 'feed://a' });
    // Same connection, in order: had feed://a still been subscribed, it would arrive first.
    server.notify.resourceUpdated('feed://a');
    server.notify.resourceUpdated('feed://b');
    await bArrived;
    expect(updated).toEqual(['feed://b']);
    await client.close();
  });
});
