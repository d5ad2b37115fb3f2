import { defineTool, ExecutorError, type Tool as ExecutorTool } from '@mtpx/executor';
import type { JsonSchemaObject, RiskLevel, ToolCall, ToolSpec } from '@mtpx/protocol';
import { asSchema, type ModelMessage, type Schema, type ToolSet } from 'ai';
import { type RunnableAiSdkTool, runAiSdkTool } from './run-ai-sdk-tool';

/** The executor-side settings of one AI SDK tool (an AI SDK tool has none of these). */
export interface AiSdkToolSettings {
  /** Input to risk policy. Default: `read_only`; `destructive` for a tool with `needsApproval`. */
  risk_level?: RiskLevel;
  /** Reuse a successful result for identical (resolved) arguments for this many seconds. */
  cache_ttl_seconds?: number;
  /** Time limit for one attempt, in milliseconds. */
  timeoutMs?: number;
  /** Runs again after a retryable `ToolExecutionError`. */
  retries?: number;
  /** May start while the model is still streaming, whatever its risk level. */
  eager?: boolean;
  tags?: string[];
  cost_hint?: string;
  side_effects?: string;
}

/** What {@link fromAiSdkTools} takes besides the tools. */
export interface FromAiSdkToolsOptions<TOOLS extends ToolSet = ToolSet> {
  /** Per tool, by its key in the tool set: risk level, cache, time limit, retries. */
  tools?: { [NAME in keyof TOOLS]?: AiSdkToolSettings };
  /** Settings for every tool not named in `tools`. */
  defaults?: AiSdkToolSettings;
  /**
   * The `messages` a tool's `execute` receives for a call (the AI SDK passes the prompt
   * that led to the call). Default: `[]`.
   */
  messages?: (call: ToolCall) => ModelMessage[] | undefined;
  /** Passed to every `execute` as `experimental_context`. */
  context?: unknown;
  /**
   * Check each output against the tool's `outputSchema` (the AI SDK only types it): a
   * mismatch fails the call with `tool_error`. Default: `false`.
   */
  checkOutput?: boolean;
}

/**
 * An AI SDK tool that cannot run in the executor: a client-side tool (no `execute`, the
 * front end answers it) or a provider tool without `execute` (the API runs it).
 */
export interface AiSdkToolWithoutExecute<NAME extends string = string> {
  name: NAME;
  kind: 'client' | 'provider';
  /** The spec a model would be shown (for a provider tool: its schema as the SDK holds it). */
  spec: ToolSpec;
  /** The provider tool's id (`openai.web_search`), for a provider tool. */
  providerToolId?: string;
}

/** What {@link fromAiSdkTools} gives back. */
export interface AiSdkTools<TOOLS extends ToolSet = ToolSet> {
  /** One executor tool per AI SDK tool with `execute`, named by its key in the tool set. */
  tools: ExecutorTool[];
  /**
   * Every tool that has no `execute`, in tool-set order: none is silently dropped. (The AI
   * SDK's `tool()` types a tool with and without `execute` alike, so the names are the
   * tool set's keys.)
   */
  withoutExecute: AiSdkToolWithoutExecute<keyof TOOLS & string>[];
}

/**
 * AI SDK tools (`tool({ description, inputSchema, execute })`, `dynamicTool`, provider tools
 * with `execute`) as MTPX executor tools: run unchanged, with `$ref` inputs, risk policy
 * and approval, the result cache, time limits, retries and events. Input schemas may be
 * zod (3 or 4), any Standard Schema, or `jsonSchema(…)`: the spec carries their JSON Schema
 * and the input is parsed by the tool's own schema before `execute` (so defaults and
 * transforms apply). An async-iterable `execute` reports each value as a preliminary
 * output and answers with the last; `toModelOutput` decides what the model reads (and what
 * `$ref`s resolve to). Tools without `execute` are listed in `withoutExecute`.
 *
 * @example
 * ```ts source="./from-ai-sdk-tools.examples.ts#fromAiSdkTools"
 * const { tools, withoutExecute } = await fromAiSdkTools(
 *   { getWeather, sendEmail },
 *   { tools: { sendEmail: { risk_level: 'write' } } },
 * );
 * const executor = createExecutor({ tools });
 * const [result] = await executor.executeToolCalls([
 *   { id: 'call_1', name: 'getWeather', arguments: { city: 'Paris' } },
 * ]);
 * result?.output; // { city: 'Paris', temperature: 21 }
 * console.log(withoutExecute); // []
 * ```
 */
export async function fromAiSdkTools<TOOLS extends ToolSet>(
  tools: TOOLS,
  options: FromAiSdkToolsOptions<TOOLS> = {},
): Promise<AiSdkTools<TOOLS>> {
  if (typeof tools !== 'object' || tools === null) {
    throw new ExecutorError({
      code: 'invalid_tool',
      message: `fromAiSdkTools needs a tool set (an object of AI SDK tools), got ${String(tools)}.`,
    });
  }
  const converted: ExecutorTool[] = [];
  const withoutExecute: AiSdkToolWithoutExecute[] = [];
  for (const [name, aiTool] of Object.entries(tools)) {
    const where = `AI SDK tool ${JSON.stringify(name)}`;
    if (typeof aiTool !== 'object' || aiTool === null) {
      throw new ExecutorError({ code: 'invalid_tool', message: `${where} is not a tool object.` });
    }
    const inputSchema = asSchema(aiTool.inputSchema) as Schema<unknown>;
    const jsonSchema = await jsonSchemaOf(where, inputSchema);
    const description = aiTool.description ?? aiTool.title ?? '';
    if (typeof aiTool.execute !== 'function') {
      const isProvider = aiTool.type === 'provider';
      withoutExecute.push({
        name,
        kind: isProvider ? 'provider' : 'client',
        spec: { name, description, input_schema: jsonSchema, tags: [], risk_level: 'read_only' },
        ...(isProvider ? { providerToolId: aiTool.id } : {}),
      });
      continue;
    }
    const settings = options.tools?.[name as keyof TOOLS] ?? options.defaults ?? {};
    const needsApproval = aiTool.needsApproval !== undefined && aiTool.needsApproval !== false;
    const runner = {
      name,
      tool: aiTool as unknown as RunnableAiSdkTool,
      inputSchema,
      outputSchema:
        options.checkOutput === true && aiTool.outputSchema !== undefined
          ? (asSchema(aiTool.outputSchema) as Schema<unknown>)
          : undefined,
      messages: options.messages,
      context: options.context,
    };
    converted.push(
      defineTool({
        ...settings,
        name,
        description,
        risk_level: settings.risk_level ?? (needsApproval ? 'destructive' : 'read_only'),
        input_schema: jsonSchema,
        execute: (args, context) => runAiSdkTool(runner, args, context),
      }),
    );
  }
  return {
    tools: converted,
    withoutExecute: withoutExecute as AiSdkToolWithoutExecute<keyof TOOLS & string>[],
  };
}

async function jsonSchemaOf(where: string, schema: Schema<unknown>): Promise<JsonSchemaObject> {
  let converted: unknown;
  try {
    converted = await schema.jsonSchema;
  } catch (cause) {
    throw new ExecutorError({
      code: 'invalid_tool',
      message: `${where} has an input schema JSON Schema cannot express (${cause instanceof Error ? cause.message : String(cause)}).`,
      cause,
    });
  }
  if (typeof converted !== 'object' || converted === null || Array.isArray(converted)) {
    throw new ExecutorError({
      code: 'invalid_tool',
      message: `${where} has an input schema that is not a JSON Schema object.`,
    });
  }
  // The executor reads a `$schema` it knows as the dialect; zod's draft-07 one is fine.
  return converted as JsonSchemaObject;
}
