import { z } from 'zod';

/** How much harm a tool can do: the input to risk policy. */
export const RiskLevelSchema = z.enum(['read_only', 'write', 'destructive']);

/** `read_only` | `write` | `destructive`. */
export type RiskLevel = z.infer<typeof RiskLevelSchema>;

/** A JSON Schema object describing a tool's arguments. */
export const JsonSchemaObjectSchema = z.record(z.string(), z.unknown());

/** A JSON Schema object. */
export type JsonSchemaObject = z.infer<typeof JsonSchemaObjectSchema>;

/**
 * What a model and a runtime know about a tool. Field names are the MTP wire names.
 *
 * @example
 * ```ts source="./protocol.examples.ts#ToolSpecSchema"
 * const spec = ToolSpecSchema.parse({
 *   name: 'calculator.add',
 *   description: 'Add two numbers',
 *   input_schema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } },
 * });
 * spec.risk_level; // 'read_only'
 * ```
 */
export const ToolSpecSchema = z.object({
  /** Stable identifier; `toolkit.action` is recommended (`calculator.add`). */
  name: z.string().min(1, 'a tool needs a non-empty name'),
  /** Model-facing description. */
  description: z.string(),
  /** JSON Schema of the arguments object. */
  input_schema: JsonSchemaObjectSchema,
  /** Grouping hints for models and runtimes. */
  tags: z.array(z.string()).default([]),
  /** Input to risk policy; defaults to `read_only`. */
  risk_level: RiskLevelSchema.default('read_only'),
  /** Human-facing cost hint (`"free"`, `"$0.01 per call"`). */
  cost_hint: z.string().optional(),
  /** Human-facing description of expected side effects. */
  side_effects: z.string().optional(),
  /** How long a result may be reused from cache, in seconds. */
  cache_ttl_seconds: z.number().nonnegative().optional(),
});

/** A tool's spec as parsed (defaults applied). */
export type ToolSpec = z.infer<typeof ToolSpecSchema>;

/** A tool's spec as written (defaults optional). */
export type ToolSpecInput = z.input<typeof ToolSpecSchema>;
