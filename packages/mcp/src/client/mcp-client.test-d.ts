import { Client } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { describe, expectTypeOf, it } from 'vitest';
import type { McpClient } from './mcp-client';

describe('McpClient', () => {
  it('accepts the v2 and the v1 SDK clients', () => {
    expectTypeOf(new Client({ name: 'a', version: '1' })).toExtend<McpClient>();
    expectTypeOf(new LegacyClient({ name: 'a', version: '1' })).toExtend<McpClient>();
  });
});
