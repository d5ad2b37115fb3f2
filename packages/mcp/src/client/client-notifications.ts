import type { McpLogLevel } from '../input/input-round';
import { isModernSdkClient, type McpClient } from './mcp-client';

/** A log message a server sent (`notifications/message`). */
export interface McpLogEntry {
  level: McpLogLevel;
  data: unknown;
  logger?: string;
}

/** What to do with the notifications a server sends a client. */
export interface ClientNotificationHandlers {
  onLog?: (entry: McpLogEntry) => void;
  onToolListChanged?: () => void;
}

/** The notification methods the adapter listens to. */
const LOG = 'notifications/message';
const TOOLS_CHANGED = 'notifications/tools/list_changed';

/**
 * Installs the handlers on either SDK's client: by method name on a v2 client, by
 * notification schema on a v1 client. On a v2 client speaking 2026-07-28, list changes
 * arrive only on a `subscriptions/listen` stream, so one is opened when the server
 * advertises `tools.listChanged`.
 */
export async function installClientNotifications(
  client: McpClient,
  handlers: ClientNotificationHandlers,
): Promise<void> {
  const setHandler = (client as { setNotificationHandler?: (...args: unknown[]) => void })
    .setNotificationHandler;
  if (typeof setHandler !== 'function') return;
  const schemas = isModernSdkClient(client) ? undefined : await legacyNotificationSchemas();
  // A v1 client whose SDK cannot be imported from here: installInputHandlers says so.
  if (!isModernSdkClient(client) && schemas === undefined) return;
  const install = (method: typeof LOG | typeof TOOLS_CHANGED, handler: (params: unknown) => void) =>
    setHandler.call(
      client,
      schemas === undefined ? method : schemas[method],
      (notification: { params?: unknown }) => handler(notification.params),
    );
  const { onLog, onToolListChanged } = handlers;
  if (onLog !== undefined) {
    install(LOG, (params) => {
      const { level, data, logger } = (params ?? {}) as Partial<McpLogEntry>;
      onLog({ level: level ?? 'info', data, ...(logger !== undefined && { logger }) });
    });
  }
  if (onToolListChanged === undefined) return;
  install(TOOLS_CHANGED, () => onToolListChanged());
  if (isModernSdkClient(client) && client.getProtocolEra() === 'modern') {
    const modern = client as unknown as {
      getServerCapabilities(): { tools?: { listChanged?: boolean } } | undefined;
      listen(filter: { toolsListChanged: boolean }): Promise<unknown>;
    };
    if (modern.getServerCapabilities()?.tools?.listChanged === true) {
      await modern.listen({ toolsListChanged: true }).catch(() => undefined);
    }
  }
}

async function legacyNotificationSchemas(): Promise<Record<string, unknown> | undefined> {
  try {
    const types = await import('@modelcontextprotocol/sdk/types.js');
    return {
      [LOG]: types.LoggingMessageNotificationSchema,
      [TOOLS_CHANGED]: types.ToolListChangedNotificationSchema,
    };
  } catch {
    return undefined;
  }
}
