import {
  createExecutor,
  defineTool,
  defineToolkit,
  ToolExecutionError,
  ToolRegistry,
} from '@mtpx/executor';
import { toolOutput } from '@mtpx/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineMcpTool } from '../definitions/mcp-tool';
import { McpAdapterError } from '../errors';
import { type McpHttpServer, serveMcp } from '../http/serve-mcp';
import { formElicitation } from '../input/input-requests';
import { complete, inputRequired } from '../input/input-round';
import {
  connectLegacyClient,
  connectModernClient,
  firstText,
  type ScriptedHandlers,
} from '../test-support/clients';
import { createMcpServer } from './create-mcp-server';

const add = defineTool({
  name: 'calculator.add',
  description: 'Adds two numbers.',
  input_schema: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

const lookup = defineTool({
  name: 'lookup',
  description: 'Looks a user up.',
  input_schema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
  execute: (args) => ({ id: args.id, name: 'Ada' }),
});

const picture = defineTool({
  name: 'picture',
  description: 'Draws a picture.',
  input_schema: z.object({}),
  execute: () =>
    toolOutput({ content: 'A cat', images: [{ data: 'aW1n', mime_type: 'image/png' }] }),
});

const fail = defineTool({
  name: 'fail',
  description: 'Always fails.',
  input_schema: z.object({}),
  risk_level: 'write',
  execute: () => {
    throw new ToolExecutionError({ message: 'The disk is full.', code: 'disk_full' });
  },
});

const slowCount = defineTool({
  name: 'count',
  description: 'Counts to three, reporting progress.',
  input_schema: z.object({}),
  execute: (_args, context) => {
    for (let completed = 1; completed <= 3; completed += 1) {
      context.reportProgress({ completed, total: 3, message: `counted ${completed}` });
    }
    return 3;
  },
});

const wipe = defineTool({
  name: 'wipe',
  description: 'Wipes the cache.',
  input_schema: z.object({ scope: z.string() }),
  risk_level: 'destructive',
  execute: ({ scope }) => `wiped ${scope}`,
});

/** A destructive multi-round tool: the policy's confirmation comes before its own rounds. */
const cancelOrder = defineMcpTool({
  name: 'cancel_order',
  description: 'Cancels an order, asking why.',
  input_schema: z.object({ order: z.string() }),
  risk_level: 'destructive',
  inputRound: ({ order }, context) => {
    const reason = context.accepted('reason', z.object({ reason: z.string() }));
    if (reason === undefined) {
      return inputRequired(
        { reason: formElicitation('Why cancel?', z.object({ reason: z.string() })) },
        { order },
      );
    }
    return complete(
      `Order ${String((context.requestState as { order: string }).order)} cancelled: ${reason.reason}`,
    );
  },
});

const weather = defineToolkit({
  name: 'weather',
  load: async () => [
    defineTool({
      name: 'weather.today',
      description: 'Today',
      input_schema: z.object({}),
      execute: () => 'sunny',
    }),
  ],
});

const server = createMcpServer({
  name: 'executor-tools',
  version: '2.0.0',
  tools: new ToolRegistry([add, lookup, picture, fail, slowCount, wipe, cancelOrder, weather]),
  policy: { tools: { fail: 'allow', 'weather.*': 'allow' } },
});

let http: McpHttpServer;
afterEach(async () => {
  await http?.close();
});

const approve = (answer: boolean, reason = 'moved house'): ScriptedHandlers => ({
  elicit: (params) =>
    String(params.message).startsWith('Allow')
      ? { action: 'accept', content: { approve: answer } }
      : { action: 'accept', content: { reason } },
});

describe.each([
  [
    '2026-07-28 (v2 client)',
    (url: URL, handlers: ScriptedHandlers = {}) => connectModernClient(url, handlers),
  ],
  [
    '2025 (v1 client)',
    (url: URL, handlers: ScriptedHandlers = {}) => connectLegacyClient(url, handlers),
  ],
] as const)('createMcpServer for a %s', (_era, connect) => {
  it('lists the tools with their schemas and risk annotations, toolkits included', async () => {
    http = await serveMcp(server, { port: 0 });
    const client = await connect(http.url);
    const { tools } = await client.listTools();
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    expect(Object.keys(byName).sort()).toEqual([
      'calculator.add',
      'cancel_order',
      'count',
      'fail',
      'lookup',
      'picture',
      'weather.today',
      'wipe',
    ]);
    expect(byName['calculator.add']).toMatchObject({
      description: 'Adds two numbers.',
      inputSchema: {
        type: 'object',
        properties: { a: { type: 'number' }, b: { type: 'number' } },
        required: ['a', 'b'],
      },
      annotations: { readOnlyHint: true, destructiveHint: false },
    });
    expect(byName.fail?.annotations).toEqual({ readOnlyHint: false, destructiveHint: false });
    expect(byName.wipe?.annotations).toEqual({ readOnlyHint: false, destructiveHint: true });
    await client.close();
  });

  it('maps outputs to content and structuredContent, and failures to isError', async () => {
    http = await serveMcp(server, { port: 0 });
    const client = await connect(http.url);
    expect(
      await client.callTool({ name: 'calculator.add', arguments: { a: 15, b: 27 } }),
    ).toMatchObject({
      content: [{ type: 'text', text: '42' }],
    });
    expect(await client.callTool({ name: 'lookup', arguments: { id: 'u1' } })).toMatchObject({
      content: [{ type: 'text', text: '{"id":"u1","name":"Ada"}' }],
      structuredContent: { id: 'u1', name: 'Ada' },
    });
    expect((await client.callTool({ name: 'picture', arguments: {} })).content).toEqual([
      { type: 'text', text: 'A cat' },
      { type: 'image', data: 'aW1n', mimeType: 'image/png' },
    ]);
    expect(await client.callTool({ name: 'fail', arguments: {} })).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: expect.stringContaining('The disk is full.') }],
    });
    const invalid = await client.callTool({
      name: 'calculator.add',
      arguments: { a: '15', b: 27 },
    });
    expect(invalid.isError).toBe(true);
    expect(firstText(invalid)).toMatch(/invalid_arguments/);
    await client.close();
  });

  it('forwards a tool’s reportProgress as MCP progress', async () => {
    http = await serveMcp(server, { port: 0 });
    const client = await connect(http.url);
    const seen: number[] = [];
    const onprogress = ({ progress }: { progress: number }) => seen.push(progress);
    const result =
      'getProtocolEra' in client
        ? await client.callTool({ name: 'count', arguments: {} }, { onprogress })
        : await client.callTool({ name: 'count', arguments: {} }, undefined, { onprogress });
    expect(firstText(result)).toBe('3');
    expect(seen).toEqual([1, 2, 3]);
    await client.close();
  });

  it('asks for confirmation before a tool whose policy is ask, then runs it', async () => {
    http = await serveMcp(server, { port: 0 });
    const approving = await connect(http.url, approve(true));
    expect(firstText(await approving.callTool({ name: 'wipe', arguments: { scope: 'all' } }))).toBe(
      'wiped all',
    );
    expect(approving.seen[0]?.params).toMatchObject({
      message: 'Allow wipe (destructive) to run with {"scope":"all"}?',
    });
    await approving.close();

    const refusing = await connect(http.url, approve(false));
    const refused = await refusing.callTool({ name: 'wipe', arguments: { scope: 'all' } });
    expect(refused).toMatchObject({ isError: true });
    expect(firstText(refused)).toBe('wipe was not run: the user did not approve the call.');
    await refusing.close();
  });

  it('runs a multi-round tool’s own rounds after the confirmation, keeping its state', async () => {
    http = await serveMcp(server, { port: 0 });
    const client = await connect(http.url, approve(true, 'moved house'));
    const result = await client.callTool({ name: 'cancel_order', arguments: { order: 'A-7' } });
    expect(firstText(result)).toBe('Order A-7 cancelled: moved house');
    expect(client.seen.map((request) => request.params.message)).toEqual([
      'Allow cancel_order (destructive) to run with {"order":"A-7"}?',
      'Why cancel?',
    ]);
    await client.close();
  });
});

describe('policy', () => {
  it('denies what the policy denies', async () => {
    http = await serveMcp(
      createMcpServer({
        name: 'strict',
        version: '1.0.0',
        tools: [wipe],
        policy: { defaults: { destructive: 'deny' } },
      }),
      { port: 0 },
    );
    const client = await connectModernClient(http.url, approve(true));
    const result = await client.callTool({ name: 'wipe', arguments: { scope: 'all' } });
    expect(result.isError).toBe(true);
    expect(firstText(result)).toMatch(/denied/);
    expect(client.seen).toEqual([]);
    await client.close();
  });
});

describe('defineMcpTool', () => {
  it('runs in a plain executor: completing without input, failing clearly when it needs some', async () => {
    const executor = createExecutor({
      tools: [cancelOrder],
      policy: { defaults: { destructive: 'allow' } },
    });
    const [result] = await executor.executeToolCalls([
      { id: 'call_1', name: 'cancel_order', arguments: { order: 'A-7' } },
    ]);
    expect(result).toMatchObject({ success: false, error_code: 'tool_error' });
    expect(result?.error).toMatch(/needs input from an MCP client \(form elicitation 'reason'\)/);

    const instant = defineMcpTool({
      name: 'instant',
      description: 'Needs nothing',
      input_schema: z.object({}),
      inputRound: () => complete('done'),
    });
    const [done] = await createExecutor({ tools: [instant] }).executeToolCalls([
      { id: 'call_1', name: 'instant', arguments: {} },
    ]);
    expect(done).toMatchObject({ success: true, output: 'done' });
  });

  it('still takes a hook named round (deprecated) as its inputRound, with context.round', async () => {
    const legacy = defineMcpTool({
      name: 'legacy',
      description: 'Defined before inputRound',
      input_schema: z.object({}),
      round: (_args, context) => complete(`${context.round}/${context.inputRound}`),
    });
    expect(legacy.inputRound).toBe(legacy.round);
    const [done] = await createExecutor({ tools: [legacy] }).executeToolCalls([
      { id: 'call_1', name: 'legacy', arguments: {} },
    ]);
    expect(done).toMatchObject({ success: true, output: '1/1' });
  });

  it('refuses a definition without an input-round hook or with a cache', () => {
    expect(() =>
      defineMcpTool({
        name: 'x',
        description: '',
        input_schema: {},
        inputRound: undefined as never,
      }),
    ).toThrow(McpAdapterError);
    expect(() =>
      defineMcpTool({
        name: 'x',
        description: '',
        input_schema: {},
        inputRound: () => complete(1),
        ...({ cache_ttl_seconds: 5 } as object),
      }),
    ).toThrow(/cannot be cached/);
  });
});
