/**
 * The MCP clients the adapter accepts: a v2 `@modelcontextprotocol/client` Client or a v1
 * `@modelcontextprotocol/sdk` Client, described by the parts the adapter uses.
 */

/** A tool as an MCP server lists it. */
export interface McpToolDescriptor {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  annotations?: {
    title?: string;
    readOnlyHint?: boolean;
    destructiveHint?: boolean;
    idempotentHint?: boolean;
    openWorldHint?: boolean;
  };
  [key: string]: unknown;
}

/** Per-call options both SDKs understand. */
export interface McpCallOptions {
  signal?: AbortSignal;
  /** Called with each progress notification the server sends for the call. */
  onprogress?: (progress: { progress: number; total?: number; message?: string }) => void;
  timeout?: number;
  resetTimeoutOnProgress?: boolean;
}

/**
 * A connected MCP client: a v2 `Client` from `@modelcontextprotocol/client` or a v1
 * `Client` from `@modelcontextprotocol/sdk`.
 */
export interface McpClient {
  /** One page of the server's tools (`tools/list`). */
  listTools(params?: { cursor?: string }, ...rest: unknown[]): Promise<unknown>;
  /** Calls one tool (`tools/call`). */
  callTool(
    params: { name: string; arguments?: Record<string, unknown>; _meta?: Record<string, unknown> },
    ...rest: unknown[]
  ): Promise<unknown>;
  /** Answers a server-to-client request (elicitation, sampling, roots) with `handler`. */
  setRequestHandler(method: unknown, handler: unknown, ...rest: unknown[]): void;
}

/** The v2 client's extra surface the adapter tells it apart by. */
interface ModernClient extends McpClient {
  getProtocolEra(): 'modern' | 'legacy' | undefined;
}

/** True for a v2 (`@modelcontextprotocol/client`) client. */
export function isModernSdkClient(client: McpClient): client is ModernClient {
  return typeof (client as Partial<ModernClient>).getProtocolEra === 'function';
}

/** Calls a tool with the call signature of the client's SDK version. */
export function callToolOn(
  client: McpClient,
  params: { name: string; arguments: Record<string, unknown>; _meta?: Record<string, unknown> },
  options: McpCallOptions,
): Promise<unknown> {
  return isModernSdkClient(client)
    ? client.callTool(params, options)
    : client.callTool(params, undefined, options);
}

/** Every tool the server lists, following `nextCursor` pages. */
export async function listAllTools(client: McpClient): Promise<McpToolDescriptor[]> {
  const tools: McpToolDescriptor[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 1000; page += 1) {
    const result = (await client.listTools(cursor === undefined ? undefined : { cursor })) as {
      tools?: McpToolDescriptor[];
      nextCursor?: string;
    };
    tools.push(...(result.tools ?? []));
    cursor = result.nextCursor;
    if (cursor === undefined || cursor === '') break;
  }
  return tools;
}

/** Which client capabilities to declare. */
export interface McpClientCapabilityOptions {
  /** Declare form and URL elicitation. */
  elicit?: boolean;
  /** Declare sampling. */
  sample?: boolean;
  /** Declare roots. */
  roots?: boolean;
}

/**
 * The client capabilities to construct an MCP client with, for the input handlers you
 * will give `mcpTools` (a client declares its capabilities once, before it connects).
 *
 * @example
 * ```ts source="../mcp.examples.ts#mcpClientCapabilities"
 * const client = new Client(
 *   { name: 'agent', version: '1.0.0' },
 *   {
 *     capabilities: mcpClientCapabilities({ elicit: true, sample: true }),
 *   },
 * );
 * ```
 */
export function mcpClientCapabilities(
  options: McpClientCapabilityOptions,
): Record<string, Record<string, unknown>> {
  return {
    ...(options.elicit === true && { elicitation: { form: {}, url: {} } }),
    ...(options.sample === true && { sampling: {} }),
    ...(options.roots === true && { roots: {} }),
  };
}

/** The MCP protocol era a v2 client speaks: `2026` (2026-07-28), `2025`, or `auto` (probe). */
export type McpClientEra = '2025' | '2026' | 'auto';

/** Options of {@link mcpClientOptions}. */
export interface McpClientOptionsInput extends McpClientCapabilityOptions {
  /** Default `2026`. */
  era?: McpClientEra;
}

/**
 * Options for a v2 `@modelcontextprotocol/client` Client: its capabilities and its protocol
 * era (`2026` pins MCP 2026-07-28; `2025` is the 2025 `initialize` handshake; `auto` probes).
 *
 * @example
 * ```ts source="../mcp.examples.ts#mcpClientOptions"
 * const client = new Client(
 *   { name: 'agent', version: '1.0.0' },
 *   mcpClientOptions({ era: '2025', elicit: true }),
 * );
 * ```
 */
export function mcpClientOptions(options: McpClientOptionsInput = {}): {
  capabilities: Record<string, Record<string, unknown>>;
  versionNegotiation: { mode: 'legacy' | 'auto' | { pin: string } };
} {
  const era = options.era ?? '2026';
  const mode = era === '2026' ? { pin: '2026-07-28' } : era === '2025' ? 'legacy' : 'auto';
  return { capabilities: mcpClientCapabilities(options), versionNegotiation: { mode } };
}
