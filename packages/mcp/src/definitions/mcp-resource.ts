import type { ReadResourceResult } from '@modelcontextprotocol/server';
import { McpAdapterError } from '../errors';
import type { InputRoundHook } from '../input/input-round';
import type { McpCacheHint, McpIcon } from './mcp-listing';

/** One piece of a resource's contents: text, or base64 `blob` bytes. */
export type McpResourceContent =
  | { text: string; mimeType?: string; uri?: string }
  | { blob: string; mimeType?: string; uri?: string };

/** What reading a resource produces; a string is its text. */
export type McpResourceResult = string | McpResourceContent | McpResourceContent[];

/** What a resource's input-round hook gets as arguments. */
export interface McpResourceArgs {
  uri: string;
}

/** A resource served over MCP at a fixed URI. Give `read`, or `inputRound` to ask for input first. */
export interface McpResourceDefinition {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  icons?: McpIcon[];
  /** How long clients may reuse its contents (2026-07-28 `resources/read` results). */
  cacheHint?: McpCacheHint;
  /** Reads the contents in one go. */
  read?: (uri: string) => McpResourceResult | Promise<McpResourceResult>;
  /** An input-round hook: may ask the client for input before returning `complete(contents)`. */
  inputRound?: InputRoundHook<McpResourceArgs, McpResourceResult>;
  /** @deprecated Use `inputRound`; removed in the next minor. */
  round?: InputRoundHook<McpResourceArgs, McpResourceResult>;
}

/**
 * Defines a resource to serve with `createMcpServer({ resources })`.
 *
 * @example
 * ```ts source="../mcp.examples.ts#defineMcpResource"
 * const readme = defineMcpResource({
 *   uri: 'docs://readme',
 *   name: 'readme',
 *   mimeType: 'text/markdown',
 *   read: () => '# Hello',
 * });
 * ```
 */
export function defineMcpResource(definition: McpResourceDefinition): McpResourceDefinition {
  if (
    definition.read === undefined &&
    definition.inputRound === undefined &&
    definition.round === undefined
  ) {
    throw new McpAdapterError({
      code: 'adapter_error',
      message: `Resource ${definition.uri} needs a read(uri) or an inputRound(args, context) function.`,
    });
  }
  return definition;
}

/** The hook the server runs for a resource: its own input-round hook, or `read` as one round. */
export function resourceHook(
  definition: McpResourceDefinition,
): InputRoundHook<McpResourceArgs, McpResourceResult> {
  const hook = definition.inputRound ?? definition.round;
  if (hook !== undefined) return hook;
  const read = definition.read as NonNullable<McpResourceDefinition['read']>;
  return async ({ uri }) => ({ type: 'complete', value: await read(uri) });
}

/** A resource's contents in MCP's `ReadResourceResult` shape. */
export function toReadResourceResult(
  definition: { uri: string; mimeType?: string | undefined },
  result: McpResourceResult,
): ReadResourceResult {
  const items = Array.isArray(result) ? result : [result];
  return {
    contents: items.map((item) => {
      const content = typeof item === 'string' ? { text: item } : item;
      const mimeType = content.mimeType ?? definition.mimeType;
      return {
        ...content,
        uri: content.uri ?? definition.uri,
        ...(mimeType !== undefined && { mimeType }),
      };
    }),
  };
}
