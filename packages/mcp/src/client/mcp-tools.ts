import {
  defineTool,
  type Tool,
  type ToolContext,
  ToolExecutionError,
  type ToolRegistry,
} from '@mtpx/executor';
import type { RiskLevel } from '@mtpx/protocol';
import { callToolResultToOutput, type McpToolResultLike } from '../definitions/tool-content';
import { McpAdapterError } from '../errors';
import { installClientNotifications, type McpLogEntry } from './client-notifications';
import { type InputHandlers, installInputHandlers } from './input-handlers';
import {
  callToolOn,
  isModernSdkClient,
  listAllTools,
  type McpClient,
  type McpToolDescriptor,
} from './mcp-client';

/** The `_meta` key of a 2026-07-28 request's log level. */
const LOG_LEVEL_META_KEY = 'io.modelcontextprotocol/logLevel';

/** Options of {@link mcpTools}. */
export interface McpToolsOptions extends InputHandlers {
  /** Prepended to every tool name (`github.` → `github.create_issue`). Default: none. */
  prefix?: string;
  /** Also register the tools in this registry. */
  registry?: ToolRegistry;
  /** Import only the tools this returns true for. */
  filter?: (tool: McpToolDescriptor) => boolean;
  /**
   * The risk level of an imported tool. Default: from the MCP annotations —
   * `readOnlyHint` → `read_only`; `destructiveHint: false` → `write`; otherwise
   * `destructive`, as MCP defines a tool without hints (so the executor's policy asks).
   */
  riskLevel?: RiskLevel | ((tool: McpToolDescriptor) => RiskLevel);
  /** Time limit for one call, in milliseconds (reset by progress). Default: the SDK's. */
  timeoutMs?: number;
  /**
   * The server's log messages (`notifications/message`). Each also reaches the calls in
   * flight as a progress message (`call-progress` events, with no counts), so agents see
   * them in their event streams.
   */
  onLog?: (entry: McpLogEntry) => void;
  /**
   * Asks the server for log messages at this level and above: `logging/setLevel` on the
   * 2025 era, the level in each call's `_meta` on 2026-07-28.
   */
  logLevel?: McpLogEntry['level'];
  /**
   * Called with the fresh tools after the server said its tool list changed
   * (`notifications/tools/list_changed`); the tools are listed again, and `registry`
   * (when given) gets the new set in place of the old. Giving this or `registry` makes
   * `mcpTools` listen for changes (on 2026-07-28, over a `subscriptions/listen` stream).
   */
  onToolsChanged?: (tools: Tool[]) => void;
}

/**
 * Imports a connected MCP server's tools as executor tools: names prefixed, schemas kept,
 * calls made over MCP. When the server asks for input mid-call, the handlers answer it —
 * `elicit` (ask the user), `sample` (an MTP `Provider` or a function), `roots` (a list) —
 * as `input_required` rounds on 2026-07-28 and as server-to-client requests on the 2025
 * era. Accepts a v2 `@modelcontextprotocol/client` Client or a v1
 * `@modelcontextprotocol/sdk` Client, built with the capabilities of the handlers given
 * (`mcpClientCapabilities` / `mcpClientOptions`).
 *
 * A failing call (an `isError` result or a JSON-RPC error) becomes an error result the
 * model reads, never a crash.
 *
 * @example
 * ```ts source="../mcp.examples.ts#mcpTools"
 * const client = new Client(
 *   { name: 'agent', version: '1.0.0' },
 *   mcpClientOptions({ elicit: true }),
 * );
 * await client.connect(new StreamableHTTPClientTransport(new URL('http://127.0.0.1:3000/mcp')));
 * const tools = await mcpTools(client, { prefix: 'bookings.', elicit: askInTerminal });
 * const executor = createExecutor({ tools });
 * ```
 */
export async function mcpTools(client: McpClient, options: McpToolsOptions = {}): Promise<Tool[]> {
  await installInputHandlers(client, options);
  const inFlight = new Set<ToolContext>();
  const load = async () =>
    (await listAllTools(client))
      .filter(options.filter ?? (() => true))
      .map((descriptor) => importTool(client, descriptor, options, inFlight));
  let tools = await load();
  options.registry?.register(tools);

  const watch = options.registry !== undefined || options.onToolsChanged !== undefined;
  let relisting = Promise.resolve();
  await installClientNotifications(client, {
    ...((options.onLog !== undefined || options.logLevel !== undefined) && {
      onLog: (entry: McpLogEntry) => {
        options.onLog?.(entry);
        const text = typeof entry.data === 'string' ? entry.data : JSON.stringify(entry.data);
        const message = `${entry.level}${entry.logger ? ` (${entry.logger})` : ''}: ${text}`;
        for (const context of inFlight) context.reportProgress({ message });
      },
    }),
    ...(watch && {
      onToolListChanged: () => {
        // One re-list at a time, in order, so the registry never holds two versions.
        relisting = relisting.then(async () => {
          const fresh = await load().catch(() => undefined);
          if (fresh === undefined) return;
          for (const tool of tools) options.registry?.unregister(tool.name);
          options.registry?.register(fresh);
          tools = fresh;
          options.onToolsChanged?.(fresh);
        });
      },
    }),
  });
  const modernEra = isModernSdkClient(client) && client.getProtocolEra() === 'modern';
  if (options.logLevel !== undefined && !modernEra) {
    const logging = client as { setLoggingLevel?: (level: string) => Promise<unknown> };
    await logging.setLoggingLevel?.(options.logLevel).catch(() => undefined);
  }
  return tools;
}

function importTool(
  client: McpClient,
  descriptor: McpToolDescriptor,
  options: McpToolsOptions,
  inFlight: Set<ToolContext>,
): Tool {
  const riskLevel =
    typeof options.riskLevel === 'function'
      ? options.riskLevel(descriptor)
      : (options.riskLevel ?? riskFromAnnotations(descriptor));
  return defineTool({
    name: `${options.prefix ?? ''}${descriptor.name}`,
    description: descriptor.description ?? descriptor.annotations?.title ?? descriptor.name,
    input_schema: descriptor.inputSchema,
    risk_level: riskLevel,
    async execute(args, context) {
      let result: McpToolResultLike;
      inFlight.add(context);
      try {
        result = (await callToolOn(
          client,
          {
            name: descriptor.name,
            arguments: args,
            // 2026-07-28 has no logging/setLevel: each request names the level it wants.
            ...(options.logLevel !== undefined &&
              isModernSdkClient(client) && { _meta: { [LOG_LEVEL_META_KEY]: options.logLevel } }),
          },
          {
            signal: context.signal,
            resetTimeoutOnProgress: true,
            ...(options.timeoutMs !== undefined && { timeout: options.timeoutMs }),
            onprogress: ({ progress, total, message }) =>
              context.reportProgress({
                completed: progress,
                ...(total !== undefined && { total }),
                ...(message !== undefined && { message }),
              }),
          },
        )) as McpToolResultLike;
      } catch (error) {
        const adapted = McpAdapterError.fromUnknown(error);
        throw new ToolExecutionError({
          message: `MCP ${descriptor.name} failed: ${adapted.message}`,
          code: adapted.code,
          cause: adapted,
        });
      } finally {
        inFlight.delete(context);
      }
      const output = callToolResultToOutput(result);
      if (result.isError === true) {
        throw new ToolExecutionError({
          message:
            typeof output === 'string' && output !== '' ? output : `MCP ${descriptor.name} failed.`,
          code: 'mcp_tool_error',
        });
      }
      return output;
    },
  });
}

function riskFromAnnotations(descriptor: McpToolDescriptor): RiskLevel {
  const annotations = descriptor.annotations ?? {};
  if (annotations.readOnlyHint === true) return 'read_only';
  return annotations.destructiveHint === false ? 'write' : 'destructive';
}
