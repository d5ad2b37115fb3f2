import type { Tool } from '@modelcontextprotocol/server';
import type { RoundHook } from './round-result';
import type { ServedTool } from './sdk-server';
import { outputToCallToolResult } from './tool-content';

/**
 * A served tool from a round hook whose `complete(value)` carries the tool's output
 * (any JSON value or a ToolOutput), mapped to MCP `content` / `structuredContent`.
 */
export function servedToolFromHook<TArgs extends Record<string, unknown>>(
  descriptor: Tool,
  hook: RoundHook<TArgs, unknown>,
): ServedTool {
  return {
    descriptor,
    async hook(args, context) {
      const result = await hook(args as TArgs, context);
      return result.type === 'complete'
        ? { type: 'complete', value: outputToCallToolResult(result.value) }
        : result;
    },
  };
}
