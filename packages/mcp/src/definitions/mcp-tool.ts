import {
  defineTool,
  type InferToolArgs,
  type Tool,
  type ToolContext,
  type ToolDefinition,
  type ToolInputSchema,
} from '@mtpx/executor';
import { McpAdapterError } from '../errors';
import { inputRequestKind } from '../input/input-requests';
import { viewInputResponse } from '../input/input-responses';
import type { InputRoundContext, InputRoundHook, InputRoundResult } from '../input/input-round';
import type { McpToolListingOptions } from './mcp-listing';

/** What {@link defineMcpTool} takes: a tool definition whose work is an input-round hook. */
export interface McpToolDefinition<TSchema extends ToolInputSchema, TArgs>
  extends Omit<ToolDefinition<TSchema, TArgs>, 'execute' | 'cache_ttl_seconds'>,
    McpToolListingOptions {
  /**
   * Called once per input round until it returns `complete(output)`; may ask the client
   * for input with `inputRequired(...)` (elicitation, sampling, roots) in between.
   */
  inputRound: InputRoundHook<TArgs, unknown>;
  /**
   * How the tool runs where no MCP client can be asked (an agent's executor). Default:
   * the input-round hook with no input; a hook that asks for input then fails the call
   * with an `input_unavailable` error naming what it needed.
   */
  execute?: ToolDefinition<TSchema, TArgs>['execute'];
}

/** The definition {@link defineMcpTool} took before `round` was named `inputRound`. */
type RoundDefinition<TSchema extends ToolInputSchema, TArgs> = Omit<
  McpToolDefinition<TSchema, TArgs>,
  'inputRound'
> & {
  /** @deprecated Use `inputRound`; removed in the next minor. */
  round: InputRoundHook<TArgs, unknown>;
};

/** An executor tool with an input-round hook: served over MCP, it asks the client for input. */
export interface McpTool<TArgs = Record<string, unknown>> extends Tool<TArgs> {
  readonly inputRound: InputRoundHook<TArgs, unknown>;
  /** @deprecated Use {@link McpTool.inputRound}; removed in the next minor. */
  readonly round: InputRoundHook<TArgs, unknown>;
  /** What its MCP listing adds: title, icons, output schema, annotations. */
  readonly listing: McpToolListingOptions;
}

/** One MCP input round in progress, found by the executor call that runs it. */
export interface InputRoundScope {
  context: InputRoundContext;
  result?: InputRoundResult<unknown>;
}

const scopesKey = Symbol.for('mtpx.mcp.round-scopes');

/** Shared by every copy of this package, so a tool and a server from two copies still meet. */
function sharedInputRoundScopes(): Map<string, InputRoundScope> {
  const holder = globalThis as Record<symbol, Map<string, InputRoundScope> | undefined>;
  let scopes = holder[scopesKey];
  if (scopes === undefined) {
    scopes = new Map();
    holder[scopesKey] = scopes;
  }
  return scopes;
}

const inputRoundScopes = sharedInputRoundScopes();

/** Runs `work` with `scope` open for the executor call `callId`. */
export async function withInputRoundScope<T>(
  callId: string,
  scope: InputRoundScope,
  work: () => Promise<T>,
): Promise<T> {
  inputRoundScopes.set(callId, scope);
  try {
    return await work();
  } finally {
    inputRoundScopes.delete(callId);
  }
}

/**
 * Defines a multi-round tool: an executor tool (register it, run it from an agent) whose
 * work is a round hook. Served with `createMcpServer`, each round may ask the client for
 * input — a form, a URL, a completion from its model, its roots — and the same definition
 * serves 2026-07-28 clients (`input_required` results) and 2025-era clients (real
 * server-to-client requests).
 *
 * @example
 * ```ts source="../mcp.examples.ts#defineMcpTool"
 * const greet = defineMcpTool({
 *   name: 'greet',
 *   description: 'Greets the user, asking for their name.',
 *   input_schema: z.object({}),
 *   inputRound: (_args, context) => {
 *     const answer = context.accepted('name', z.object({ name: z.string() }));
 *     if (answer === undefined) {
 *       return inputRequired({
 *         name: formElicitation('Your name?', z.object({ name: z.string() })),
 *       });
 *     }
 *     return complete(`Hello, ${answer.name}!`);
 *   },
 * });
 * ```
 */
export function defineMcpTool<TSchema extends ToolInputSchema, TArgs = InferToolArgs<TSchema>>(
  definition: McpToolDefinition<TSchema, TArgs>,
): McpTool<TArgs>;
/** @deprecated Name the hook `inputRound` instead of `round`; removed in the next minor. */
export function defineMcpTool<TSchema extends ToolInputSchema, TArgs = InferToolArgs<TSchema>>(
  definition: RoundDefinition<TSchema, TArgs>,
): McpTool<TArgs>;
export function defineMcpTool<TSchema extends ToolInputSchema, TArgs = InferToolArgs<TSchema>>(
  given: McpToolDefinition<TSchema, TArgs> | RoundDefinition<TSchema, TArgs>,
): McpTool<TArgs> {
  const hook = given === null || typeof given !== 'object' ? undefined : hookOf(given);
  if (typeof hook !== 'function') {
    throw new McpAdapterError({
      code: 'adapter_error',
      message: `Tool ${JSON.stringify(given?.name)} needs an \`inputRound(args, context)\` function.`,
    });
  }
  const { round: _deprecated, ...definition } = {
    ...given,
    inputRound: hook,
  } as McpToolDefinition<TSchema, TArgs> & { round?: unknown };
  if ('cache_ttl_seconds' in definition) {
    throw new McpAdapterError({
      code: 'adapter_error',
      message: `Tool ${JSON.stringify(definition.name)}: a multi-round tool cannot be cached (its output depends on the client's answers).`,
    });
  }
  const {
    inputRound: round,
    execute: standalone,
    title,
    icons,
    output_schema,
    annotations,
    ...rest
  } = definition;
  const listing: McpToolListingOptions = {
    ...(title !== undefined && { title }),
    ...(icons !== undefined && { icons }),
    ...(output_schema !== undefined && { output_schema }),
    ...(annotations !== undefined && { annotations }),
  };
  const tool = defineTool<TSchema, TArgs>({
    ...rest,
    async execute(args, context) {
      const scope = inputRoundScopes.get(context.call.id);
      if (scope === undefined) {
        return standalone === undefined
          ? runWithoutClient(definition.name, round, args, context)
          : standalone(args, context);
      }
      // The executor's signal also fires on the tool's time limit, not only on cancellation.
      scope.result = await round(args, { ...scope.context, signal: context.signal });
      return scope.result.type === 'complete' ? scope.result.value : null;
    },
  });
  return Object.assign(tool, { inputRound: round, round, listing });
}

/** True for tools made by {@link defineMcpTool}. @internal */
export function isMcpTool(tool: unknown): tool is McpTool<never> {
  return (
    typeof tool === 'object' &&
    tool !== null &&
    typeof (tool as Partial<McpTool>).inputRound === 'function' &&
    typeof (tool as Partial<McpTool>).execute === 'function'
  );
}

async function runWithoutClient<TArgs>(
  name: string,
  round: InputRoundHook<TArgs, unknown>,
  args: TArgs,
  toolContext: ToolContext,
): Promise<unknown> {
  const context: InputRoundContext = {
    clientCapabilities: {},
    inputResponses: {},
    requestState: undefined,
    inputRound: 1,
    round: 1,
    era: 'modern',
    signal: toolContext.signal,
    async progress(progress, options = {}) {
      toolContext.reportProgress({
        completed: progress,
        ...(options.total !== undefined && { total: options.total }),
        ...(options.message !== undefined && { message: options.message }),
      });
    },
    // No MCP client to log to: a log line becomes a progress message the executor reports.
    async log(level, data) {
      toolContext.reportProgress({
        message: `${level}: ${typeof data === 'string' ? data : JSON.stringify(data)}`,
      });
    },
    response: () => viewInputResponse(undefined),
    accepted: (() => undefined) as InputRoundContext['accepted'],
  };
  const result = await round(args, context);
  if (result.type === 'complete') return result.value;
  const wanted = Object.entries(result.requests)
    .map(([key, request]) => `${inputRequestKind(request).replace('_', ' ')} '${key}'`)
    .join(', ');
  throw new McpAdapterError({
    code: 'input_unavailable',
    message: `${name} needs input from an MCP client (${wanted || 'another round'}), and none can be asked here; serve it with createMcpServer.`,
  });
}

function hookOf<TSchema extends ToolInputSchema, TArgs>(
  definition: McpToolDefinition<TSchema, TArgs> | RoundDefinition<TSchema, TArgs>,
): InputRoundHook<TArgs, unknown> | undefined {
  return 'inputRound' in definition ? definition.inputRound : definition.round;
}
