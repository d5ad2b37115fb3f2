/** Test support (not exported from the package): the server the tests talk to. */
import type { AnyTool } from '@mtpx/executor';
import { createMcpServer } from '../server/create-mcp-server';
import type { McpToolServer } from '../server/mcp-tool-server';
import { testTools } from './tools';

/** Options of {@link testServer}. */
export interface TestServerOptions {
  tools?: AnyTool[];
  stateTtlSeconds?: number;
  onError?: (error: Error) => void;
}

/** A server with the test tools (`createMcpServer`, as users build one). */
export function testServer(options: TestServerOptions = {}): McpToolServer {
  return createMcpServer({
    name: 'mtpx-test',
    version: '1.0.0',
    tools: options.tools ?? testTools,
    stateTtlSeconds: options.stateTtlSeconds ?? 600,
    ...(options.onError !== undefined && { onError: options.onError }),
  });
}
