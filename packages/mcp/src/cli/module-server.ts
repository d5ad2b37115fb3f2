import { ToolRegistry } from '@mtpx/executor';
import type { McpPromptDefinition } from '../definitions/mcp-prompt';
import type { McpResourceDefinition } from '../definitions/mcp-resource';
import { createMcpServer } from '../server/create-mcp-server';
import type { McpToolServer } from '../server/mcp-tool-server';

/**
 * Builds a server from a module's `tools` (an array of tools or a ToolRegistry) and its
 * optional `prompts`, `resources`, `name`, `version` and `stateKey` exports, for
 * `mtpx-mcp`. `undefined` when the module has no `tools`.
 */
export function serverFromModuleExports(
  exports: Record<string, unknown>,
): McpToolServer | undefined {
  const tools = exports.tools;
  if (!(tools instanceof ToolRegistry) && !Array.isArray(tools)) return undefined;
  return createMcpServer({
    name: typeof exports.name === 'string' ? exports.name : 'mtpx-mcp',
    version: typeof exports.version === 'string' ? exports.version : '0.0.0',
    tools,
    ...(Array.isArray(exports.prompts) && { prompts: exports.prompts as McpPromptDefinition[] }),
    ...(Array.isArray(exports.resources) && {
      resources: exports.resources as McpResourceDefinition[],
    }),
    ...(typeof exports.stateKey === 'string' && { stateKey: exports.stateKey }),
  });
}
