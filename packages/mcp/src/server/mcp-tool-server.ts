import type { Server } from '@modelcontextprotocol/server';
import { createSdkServer, type ProtocolEra, type ServerDefinition } from './sdk-server';
import type { McpServerEvent, McpServerNotifier, ServerEvents } from './server-events';

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
  /**
   * Tells connected clients what changed: list changes (`toolsChanged()` after registering
   * tools, …) and resource updates (to the clients subscribed to that URI), as
   * notifications on 2025-era connections and on 2026-07-28 `subscriptions/listen` streams.
   */
  readonly notify: McpServerNotifier;
}

const eventsByServer = new WeakMap<McpToolServer, ServerEvents>();

/** Listens to a server's change events (the HTTP handler forwards them to listen streams). */
export function listenToServerEvents(
  server: McpToolServer,
  listener: (event: McpServerEvent) => void,
): () => void {
  return eventsByServer.get(server)?.listen(listener) ?? (() => undefined);
}

/** Wraps a definition as an {@link McpToolServer}. */
export function toolServerFromDefinition(definition: ServerDefinition): McpToolServer {
  const { events } = definition;
  const server = {
    [marker]: true,
    name: definition.name,
    version: definition.version,
    get toolNames() {
      return definition.tools.names();
    },
    createSdkServer: (era = 'modern') => createSdkServer(definition, era),
    notify: {
      toolsChanged: () => events.toolsChanged(),
      promptsChanged: () => events.promptsChanged(),
      resourcesChanged: () => events.resourcesChanged(),
      resourceUpdated: (uri: string) => events.resourceUpdated(uri),
    },
  } as McpToolServer;
  eventsByServer.set(server, events);
  return server;
}

/** True for servers made by `createMcpServer` (from any copy of this package). @internal */
export function isMcpToolServer(value: unknown): value is McpToolServer {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Record<symbol, unknown>)[marker] === true
  );
}
