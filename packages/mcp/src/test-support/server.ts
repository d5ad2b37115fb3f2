/** Test support (not exported from the package): the server the tests talk to. */
import { type McpToolServer, toolServerFromDefinition } from '../mcp-tool-server';
import { createStateSigner } from '../request-state';
import { staticToolSource } from '../sdk-server';
import { servedToolFromHook } from '../served-tool';
import { type TestTool, testTools } from './tools';

/** Options of {@link testServer}. */
export interface TestServerOptions {
  tools?: TestTool[];
  stateTtlSeconds?: number;
  onError?: (error: Error) => void;
}

/** A server with the test tools. */
export function testServer(options: TestServerOptions = {}): McpToolServer {
  return toolServerFromDefinition({
    name: 'mtpx-test',
    version: '1.0.0',
    tools: staticToolSource(
      (options.tools ?? testTools).map((tool) =>
        servedToolFromHook(
          {
            name: tool.name,
            description: tool.description,
            inputSchema: tool.inputSchema as never,
          },
          tool.round,
        ),
      ),
    ),
    prompts: [],
    resources: [],
    signer: createStateSigner({ ttlSeconds: options.stateTtlSeconds ?? 600 }),
    onError: options.onError,
  });
}
