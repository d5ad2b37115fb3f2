import type {
  JsonObject,
  JsonSchemaObject,
  JsonValue,
  RiskLevel,
  ToolCall,
  ToolSpec,
} from '@mtpx/protocol';
import { z } from 'zod';
import { ExecutorError } from '../errors';

/** A zod 4 schema (classic or mini). */
export type ZodSchema = z.core.$ZodType;

/** A tool's input schema: a JSON Schema object, or a zod schema (converted to JSON Schema for the spec). */
export type ToolInputSchema = JsonSchemaObject | ZodSchema;

/** The arguments type a schema gives: the zod schema's output, or any JSON object. */
export type InferToolArgs<TSchema> = TSchema extends ZodSchema ? z.output<TSchema> : JsonObject;

/** What a tool reports while it runs (`reportProgress`); every field is optional. */
export interface ToolProgress {
  /** A short line for people watching (`"Read 3 of 10 files"`). */
  message?: string;
  /** Units done so far. */
  completed?: number;
  /** Units in all, when known. */
  total?: number;
  /** Anything else, as JSON. */
  data?: JsonValue;
}

/** What a tool receives beside its arguments. */
export interface ToolContext {
  /** Fires when the call times out or the run is cancelled: stop work and return. */
  readonly signal: AbortSignal;
  /** The call as the model wrote it (references unresolved). */
  readonly call: ToolCall;
  /** 1 on the first try, 2 on the first retry, … */
  readonly attempt: number;
  /** The run's id, when the caller gave one. */
  readonly runId: string | undefined;
  /**
   * `idem_` + hex SHA-256 of the canonical JSON of `[runId ?? '', call id, resolved
   * arguments]`: the same for every attempt, in every process and after a resume, so a
   * tool with side effects can apply each call once (see {@link idempotencyKeyOf}).
   */
  readonly idempotencyKey: string;
  /** Emits a `call-progress` event; cheap and a no-op when nobody listens. */
  reportProgress(progress: ToolProgress): void;
}

/** The ToolSpec fields and runtime options every tool definition shares. */
export interface ToolDefinitionOptions {
  /** Stable identifier; `toolkit.action` is recommended (`calculator.add`). */
  name: string;
  /** Model-facing description: what the tool does and when to use it. */
  description: string;
  /** Input to risk policy; `read_only` when left out. */
  risk_level?: RiskLevel;
  /** Reuse a successful result for identical arguments for this many seconds. */
  cache_ttl_seconds?: number;
  /** Grouping hints for models and runtimes. */
  tags?: string[];
  /** Human-facing cost hint. */
  cost_hint?: string;
  /** Human-facing description of expected side effects. */
  side_effects?: string;
  /** Time limit for one attempt, in milliseconds (overrides the executor's `timeoutMs`). */
  timeoutMs?: number;
  /** @deprecated Use {@link ToolDefinitionOptions.timeoutMs}; removed in the next minor. */
  timeout_ms?: number;
  /** How many times to run the call again after a retryable failure; 0 when left out. */
  retries?: number;
  /**
   * May start while the model is still streaming, whatever its `risk_level` (an agent's
   * safe eager dispatch starts only `read_only` tools early and holds the others until the
   * response has finished). Set it for a `write` tool whose effect is harmless to repeat
   * or to leave behind. Default: `true` for `read_only` tools, `false` for the others.
   */
  eager?: boolean;
}

/** What {@link defineTool} takes: the spec, the runtime options and the function. */
export interface ToolDefinition<TSchema extends ToolInputSchema, TArgs>
  extends ToolDefinitionOptions {
  /** JSON Schema of the arguments object, or a zod schema (then `args` is typed from it). */
  input_schema: TSchema;
  /**
   * Runs the call with validated, resolved arguments. Return any JSON value, or a
   * `ToolOutput` (`toolOutput({ content, images })`) to attach media. Throw to fail the call
   * (a {@link @mtpx/executor!ToolExecutionError | ToolExecutionError} to set a code or mark it retryable).
   */
  execute(args: TArgs, context: ToolContext): unknown;
}

/** A ToolSpec plus the function that runs it. Made by {@link defineTool}. */
export interface Tool<TArgs = JsonObject> extends ToolSpec {
  /** Time limit for one attempt, in milliseconds. */
  readonly timeoutMs?: number;
  /** @deprecated Use {@link Tool.timeoutMs}; removed in the next minor. */
  readonly timeout_ms?: number;
  /** Retries after a retryable failure. */
  readonly retries?: number;
  /** May start while the model is still streaming (see `ToolDefinitionOptions.eager`). */
  readonly eager?: boolean;
  /** The zod schema the arguments are parsed with, when the tool was defined with one. */
  readonly zodSchema?: ZodSchema;
  /** Runs the call. */
  execute(args: TArgs, context: ToolContext): unknown;
}

/**
 * True for zod 4 schemas (classic or mini).
 *
 * @internal
 */
export function isZodSchema(value: unknown): value is ZodSchema {
  return typeof value === 'object' && value !== null && '_zod' in value;
}

/**
 * Defines a tool: a ToolSpec plus the function that runs it. With a zod `input_schema`,
 * `args` is typed from the schema and parsed by it (defaults and transforms apply); the
 * spec carries its JSON Schema. With a JSON Schema, arguments are checked by a compiled
 * JSON Schema 2020-12 validator before `execute` runs.
 *
 * @example
 * ```ts source="./define-tool.examples.ts#defineTool"
 * const add = defineTool({
 *   name: 'calculator.add',
 *   description: 'Add two numbers.',
 *   input_schema: z.object({ a: z.number(), b: z.number() }),
 *   execute: ({ a, b }) => a + b, // a and b are numbers
 * });
 * ```
 */
export function defineTool<TSchema extends ToolInputSchema, TArgs = InferToolArgs<TSchema>>(
  definition: ToolDefinition<TSchema, TArgs>,
): Tool<TArgs> {
  const where = `Tool ${JSON.stringify(definition?.name)}`;
  if (typeof definition !== 'object' || definition === null) {
    throw invalid(`defineTool needs a definition object, got ${String(definition)}.`);
  }
  if (typeof definition.name !== 'string' || definition.name === '') {
    throw invalid('A tool needs a non-empty string `name`.');
  }
  if (typeof definition.execute !== 'function')
    throw invalid(`${where} needs an \`execute\` function.`);
  if (typeof definition.description !== 'string')
    throw invalid(`${where} needs a \`description\` string.`);
  checkNumber(where, 'timeoutMs', definition.timeoutMs, { positive: true });
  checkNumber(where, 'timeout_ms', definition.timeout_ms, { positive: true });
  const timeoutMs = definition.timeoutMs ?? definition.timeout_ms;
  checkNumber(where, 'retries', definition.retries, { integer: true });
  checkNumber(where, 'cache_ttl_seconds', definition.cache_ttl_seconds, {});

  const schema = definition.input_schema;
  let inputSchema: JsonSchemaObject;
  let zodSchema: ZodSchema | undefined;
  if (isZodSchema(schema)) {
    zodSchema = schema;
    inputSchema = zodToJsonSchema(where, schema);
  } else if (typeof schema === 'object' && schema !== null && !Array.isArray(schema)) {
    inputSchema = schema;
  } else {
    throw invalid(`${where} needs an \`input_schema\`: a JSON Schema object or a zod schema.`);
  }

  const tool: Tool<TArgs> = {
    name: definition.name,
    description: definition.description,
    input_schema: inputSchema,
    tags: definition.tags ?? [],
    risk_level: definition.risk_level ?? 'read_only',
    ...(definition.cost_hint === undefined ? {} : { cost_hint: definition.cost_hint }),
    ...(definition.side_effects === undefined ? {} : { side_effects: definition.side_effects }),
    ...(definition.cache_ttl_seconds === undefined
      ? {}
      : { cache_ttl_seconds: definition.cache_ttl_seconds }),
    // Both spellings, so code reading the deprecated one keeps working for a minor.
    ...(timeoutMs === undefined ? {} : { timeoutMs, timeout_ms: timeoutMs }),
    ...(definition.retries === undefined ? {} : { retries: definition.retries }),
    ...(definition.eager === undefined ? {} : { eager: definition.eager === true }),
    ...(zodSchema === undefined ? {} : { zodSchema }),
    execute: definition.execute,
  };
  return tool;
}

/**
 * A tool's time limit for one attempt, in milliseconds (`timeoutMs`, or the deprecated
 * `timeout_ms` of a tool made by hand), or `undefined`.
 *
 * @internal
 */
export function timeLimitOf(
  tool: Pick<Tool<never>, 'timeoutMs' | 'timeout_ms'>,
): number | undefined {
  return tool.timeoutMs ?? tool.timeout_ms;
}

/**
 * The ToolSpec of a tool: what a provider sends the model (no function, no runtime options).
 *
 * @internal
 */
export function toolSpecOf(tool: Tool<never>): ToolSpec {
  const spec: ToolSpec = {
    name: tool.name,
    description: tool.description,
    input_schema: tool.input_schema,
    tags: tool.tags ?? [],
    risk_level: tool.risk_level ?? 'read_only',
  };
  if (tool.cost_hint !== undefined) spec.cost_hint = tool.cost_hint;
  if (tool.side_effects !== undefined) spec.side_effects = tool.side_effects;
  if (tool.cache_ttl_seconds !== undefined) spec.cache_ttl_seconds = tool.cache_ttl_seconds;
  return spec;
}

function zodToJsonSchema(where: string, schema: ZodSchema): JsonSchemaObject {
  let converted: JsonSchemaObject;
  try {
    converted = z.toJSONSchema(schema, { io: 'input' }) as JsonSchemaObject;
  } catch (cause) {
    throw new ExecutorError({
      code: 'invalid_tool',
      message: `${where} has a zod input schema that JSON Schema cannot express (${cause instanceof Error ? cause.message : String(cause)}); use JSON-compatible types.`,
      cause,
    });
  }
  const { $schema: _dialect, ...rest } = converted;
  return rest;
}

function checkNumber(
  where: string,
  key: string,
  value: unknown,
  { positive = false, integer = false }: { positive?: boolean; integer?: boolean },
): void {
  if (value === undefined) return;
  const ok =
    typeof value === 'number' &&
    Number.isFinite(value) &&
    (positive ? value > 0 : value >= 0) &&
    (!integer || Number.isInteger(value));
  if (!ok) {
    const kind = integer ? 'integer' : 'number';
    throw invalid(
      `${where}: \`${key}\` must be a ${positive ? 'positive' : 'non-negative'} ${kind}, got ${String(value)}.`,
    );
  }
}

function invalid(message: string): ExecutorError {
  return new ExecutorError({ code: 'invalid_tool', message });
}
