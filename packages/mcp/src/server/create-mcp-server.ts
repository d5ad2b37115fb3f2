import { randomUUID } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/server';
import {
  type AnyTool,
  createExecutor,
  type ExecutorEvent,
  type PlanApprovals,
  type ResultCache,
  RiskPolicy,
  type RiskPolicyOptions,
  type Toolkit,
  type ToolPolicy,
  ToolRegistry,
} from '@mtpx/executor';
import { toolSpecOf } from '@mtpx/executor/internal';
import { type JsonValue, type ToolResult, toolMessageFromResult, toolOutput } from '@mtpx/protocol';
import type {
  McpCacheableMethod,
  McpCacheHint,
  McpIcon,
  McpToolListingOptions,
} from '../definitions/mcp-listing';
import type { McpPromptDefinition } from '../definitions/mcp-prompt';
import type { McpResourceDefinition } from '../definitions/mcp-resource';
import type { McpResourceTemplate } from '../definitions/mcp-resource-template';
import { type InputRoundScope, withInputRoundScope } from '../definitions/mcp-tool';
import { errorToCallToolResult, outputToCallToolResult } from '../definitions/tool-content';
import { toolListing } from '../definitions/tool-listing';
import { approvalGate } from '../input/approval-gate';
import { complete, type InputRoundContext, type InputRoundResult } from '../input/input-round';
import { createStateSigner } from '../input/request-state';
import { type McpToolServer, toolServerFromDefinition } from './mcp-tool-server';
import type { ServedTool, ToolSource } from './sdk-server';
import { ServerEvents } from './server-events';

/** Options of {@link createMcpServer}. */
export interface CreateMcpServerOptions {
  /** The server's name, as clients see it. */
  name: string;
  /** The server's version. */
  version: string;
  title?: string;
  /** What the server does, for people choosing servers. */
  description?: string;
  websiteUrl?: string;
  icons?: McpIcon[];
  /** How to use the server, for the client's model. */
  instructions?: string;
  /** The tools: a registry, or a list of tools and toolkits (`defineMcpTool` tools ask for input). */
  tools: ToolRegistry | ReadonlyArray<AnyTool | Toolkit>;
  /**
   * What each tool's MCP listing adds, by tool name: `title`, `icons`, `output_schema`
   * (checked against every result before it is sent), `annotations`. `defineMcpTool`
   * tools take the same fields on their definition.
   */
  toolListings?: Readonly<Record<string, McpToolListingOptions>>;
  prompts?: readonly McpPromptDefinition[];
  resources?: readonly McpResourceDefinition[];
  /** Resource families named by RFC 6570 URI templates (`defineMcpResourceTemplate`). */
  resourceTemplates?: readonly McpResourceTemplate[];
  /**
   * Caching hints per list for 2026-07-28 results (`ttlMs`, `cacheScope`); a resource's
   * own `cacheHint` wins for its reads. Default: `ttlMs: 0`, `cacheScope: 'private'`.
   */
  cacheHints?: Partial<Record<McpCacheableMethod, McpCacheHint>>;
  /**
   * Risk policy (default: read_only and write allowed, destructive asked). A tool whose
   * decision is `ask` gets a confirmation round (a form elicitation) before it runs.
   */
  policy?: ToolPolicy | RiskPolicyOptions;
  /**
   * HMAC key for request state, at least 32 bytes. Give every instance serving the same
   * tools the same key. Default: a random key per server (one process serves all rounds).
   */
  stateKey?: string | Uint8Array;
  /** How long a round's state stays valid, in seconds. Default 600. */
  stateTtlSeconds?: number;
  /** Rounds one 2025-era call may take before the server gives up. Default 8. */
  maxRounds?: number;
  /** Time limit of one attempt for tools without their own, in milliseconds. */
  timeoutMs?: number;
  /** Result cache for tools with `cache_ttl_seconds`; `false` turns it off. Default: in memory. */
  cache?: ResultCache | false;
  /** Out-of-band errors: refused request states (with the reason), transport errors. */
  onError?: (error: Error) => void;
}

/**
 * Serves MTP tools as MCP tools. `input_schema` becomes `inputSchema`; `risk_level`
 * becomes the `readOnlyHint` / `destructiveHint` annotations; outputs become `content` and
 * `structuredContent`; failures become `isError` results. Calls run through an executor
 * (argument validation, policy, time limits, retries). Tools made with `defineMcpTool`
 * ask the client for input in rounds; a tool whose policy is `ask` gets a confirmation
 * round first. Request state is signed (HMAC) and bound to the call.
 *
 * Serve the result with `serveMcp` (Streamable HTTP), `createMcpHttpHandler` or
 * `serveMcpStdio`: 2026-07-28 clients get `input_required` results, 2025-era clients the
 * same rounds as server-to-client requests.
 *
 * @example
 * ```ts source="../mcp.examples.ts#createMcpServer"
 * const server = createMcpServer({ name: 'bookings', version: '1.0.0', tools: [bookTable] });
 * await serveMcp(server, { port: 3000 });
 * ```
 */
export function createMcpServer(options: CreateMcpServerOptions): McpToolServer {
  const registry =
    options.tools instanceof ToolRegistry ? options.tools : new ToolRegistry(options.tools);
  const policy = toPolicy(options.policy);
  const executor = createExecutor({
    tools: registry,
    policy,
    ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
    ...(options.cache !== undefined && { cache: options.cache }),
  });

  const served = new WeakMap<AnyTool, ServedTool>();
  const serve = (tool: AnyTool): ServedTool => {
    let entry = served.get(tool);
    if (entry === undefined) {
      const { descriptor, checkResult } = toolListing(tool, options.toolListings?.[tool.name]);
      entry = { descriptor, hook: toolHook(tool, checkResult) };
      served.set(tool, entry);
    }
    return entry;
  };

  function toolHook(
    tool: AnyTool,
    checkResult: (result: CallToolResult) => CallToolResult,
  ): ServedTool['hook'] {
    const run = async (
      args: Record<string, unknown>,
      context: InputRoundContext,
      approved: boolean,
    ): Promise<InputRoundResult<CallToolResult>> => {
      const call = { id: `mcp_${randomUUID()}`, name: tool.name, arguments: args as never };
      const scope: InputRoundScope = { context };
      // The confirmation round's answer is the decision, given to the executor as any
      // decision made outside a plan execution (the agent's resumed approvals use the same).
      const approvals: PlanApprovals | undefined = approved
        ? {
            decided: (request) => (request.call.id === call.id ? { approved: true } : undefined),
            pending: () => {},
          }
        : undefined;
      const [result] = await withInputRoundScope(call.id, scope, () =>
        executor.executeToolCalls([call], {
          signal: context.signal,
          onEvent: (event) => void forwardProgress(event, context),
          ...(approvals === undefined ? {} : { approvals }),
        }),
      );
      if (scope.result?.type === 'input_required' && result?.success) return scope.result;
      return complete(checkResult(toolResultToCallToolResult(result)));
    };
    return async (args, context) => {
      const decision = policy.decide(toolSpecOf(tool), {
        id: 'mcp_policy',
        name: tool.name,
        arguments: args as never,
        depends_on: [],
      });
      if (decision !== 'ask') return run(args, context, false);
      return approvalGate(tool, args, context, (inner) => run(args, inner, true));
    };
  }

  const tools: ToolSource = {
    async list() {
      await registry.load();
      return registry.list().flatMap((spec) => {
        const tool = registry.get(spec.name);
        return tool === undefined ? [] : [serve(tool)];
      });
    },
    async get(name) {
      const tool = await registry.resolve(name);
      return tool === undefined ? undefined : serve(tool);
    },
    names: () => registry.list().map((spec) => spec.name),
  };

  return toolServerFromDefinition({
    name: options.name,
    version: options.version,
    ...(options.title !== undefined && { title: options.title }),
    ...(options.description !== undefined && { description: options.description }),
    ...(options.websiteUrl !== undefined && { websiteUrl: options.websiteUrl }),
    ...(options.icons !== undefined && { icons: options.icons }),
    ...(options.cacheHints !== undefined && { cacheHints: options.cacheHints }),
    ...(options.instructions !== undefined && { instructions: options.instructions }),
    tools,
    prompts: options.prompts ?? [],
    resources: options.resources ?? [],
    resourceTemplates: options.resourceTemplates ?? [],
    events: new ServerEvents(options.onError),
    signer: createStateSigner({
      ...(options.stateKey !== undefined && { key: options.stateKey }),
      ...(options.stateTtlSeconds !== undefined && { ttlSeconds: options.stateTtlSeconds }),
    }),
    ...(options.maxRounds !== undefined && { maxRounds: options.maxRounds }),
    onError: options.onError,
  });
}

/** An executor result as an MCP tool result: the output (and media), or `isError`. @internal */
export function toolResultToCallToolResult(result: ToolResult | undefined): CallToolResult {
  if (result === undefined) return errorToCallToolResult('The call produced no result.');
  if (!result.success) return errorToCallToolResult(toolMessageFromResult(result).content);
  const { images, videos, audios, files } = result;
  const hasMedia = [images, videos, audios, files].some((list) => (list?.length ?? 0) > 0);
  const output = result.output as JsonValue;
  return outputToCallToolResult(
    hasMedia
      ? toolOutput({
          content: output,
          ...(images !== undefined && { images }),
          ...(videos !== undefined && { videos }),
          ...(audios !== undefined && { audios }),
          ...(files !== undefined && { files }),
        })
      : output,
  );
}

/** A plain tool's `reportProgress` as MCP progress (only reports with a `completed` count). */
async function forwardProgress(event: ExecutorEvent, context: InputRoundContext): Promise<void> {
  if (event.type !== 'call-progress' || event.progress.completed === undefined) return;
  await context
    .progress(event.progress.completed, {
      ...(event.progress.total !== undefined && { total: event.progress.total }),
      ...(event.progress.message !== undefined && { message: event.progress.message }),
    })
    .catch(() => undefined);
}

function toPolicy(policy: ToolPolicy | RiskPolicyOptions | undefined): ToolPolicy {
  if (policy !== undefined && typeof (policy as ToolPolicy).decide === 'function') {
    return policy as ToolPolicy;
  }
  return new RiskPolicy(policy as RiskPolicyOptions | undefined);
}
