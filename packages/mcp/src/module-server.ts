import type { McpToolServer } from './mcp-tool-server';

/**
 * Builds a server from a module's `tools` (and optional `prompts`, `resources`, `name`,
 * `version`, `stateKey`) exports, for `mtpx-mcp`.
 */
export function serverFromModuleExports(
  _exports: Record<string, unknown>,
): McpToolServer | undefined {
  return undefined;
}
