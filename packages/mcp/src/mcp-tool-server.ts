import type { Server } from '@modelcontextprotocol/server';
import { createSdkServer, type ProtocolEra, type ServerDefinition } from './sdk-server';

const markerName = 'mtpx.mcp.McpToolServer';
const marker = Symbol.for(markerName);

/**
 * An MCP server definition made by `createMcpServer`: serve it with `serveMcp` (Streamable
 * HTTP), `createMcpHttpHandler` (any fetch-style runtime) or `serveMcpStdio`.
 */
export interface McpToolServer {
  readonly name: string;
  readonly version: string;
  /** The names of the tools it serves now (toolkits not loaded yet are left out). */
  readonly toolNames: readonly string[];
  /**
   * A fresh low-level SDK `Server` for one connection or one request of `era` (the factory
   * the SDK's serving entries take). Each instance answers with the same definitions.
   */
  createSdkServer(era?: ProtocolEra): Server;
}

/** Wraps a definition as an {@link McpToolServer}. */
export function toolServerFromDefinition(definition: ServerDefinition): McpToolServer {
  return {
    [marker]: true,
    name: definition.name,
    version: definition.version,
    get toolNames() {
      return definition.tools.names();
    },
    createSdkServer: (era = 'modern') => createSdkServer(definition, era),
  } as McpToolServer;
}

/** True for servers made by `createMcpServer` (from any copy of this package). */
export function isMcpToolServer(value: unknown): value is McpToolServer {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Record<symbol, unknown>)[marker] === true
  );
}
