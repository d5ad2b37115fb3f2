import type { AnyTool } from '@mtpx/executor';
import { afterEach, describe, expect, it } from 'vitest';
import { type McpHttpServer, serveMcp } from '../http/serve-mcp';
import { createMcpServer } from '../server/create-mcp-server';
import { connectLegacyClient, connectModernClient } from '../test-support/clients';

/**
 * A tool object made without `defineTool` (plain JavaScript, a toolkit that builds its own
 * objects), so it carries no `risk_level` at all.
 */
const unrated = {
  name: 'unrated',
  description: 'Says nothing about what it changes.',
  input_schema: { type: 'object', properties: {} },
  execute: () => 'done',
} as unknown as AnyTool;

let http: McpHttpServer | undefined;
afterEach(async () => {
  await http?.close();
  http = undefined;
});

describe.each([
  ['2026-07-28 (v2 client)', connectModernClient],
  ['2025 (v1 client)', connectLegacyClient],
] as const)('tool listings for a %s', (_era, connect) => {
  it('regression: a tool without risk_level is advertised as neither read-only nor destructive-free', async () => {
    http = await serveMcp(createMcpServer({ name: 's', version: '1', tools: [unrated] }), {
      port: 0,
    });
    const client = await connect(http.url);
    const { tools } = await client.listTools();
    expect(tools[0]?.annotations).toEqual({ readOnlyHint: false, destructiveHint: true });
    await client.close();
  });
});
