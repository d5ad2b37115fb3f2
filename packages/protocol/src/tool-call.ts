import { z } from 'zod';
import type { JsonValue } from './json';

const JsonValueSchema: z.ZodType<JsonValue> = z.json();

/** A call's arguments: a JSON object (references are ordinary values inside it). */
export const ToolArgumentsSchema = z.record(z.string(), JsonValueSchema);

/** A call's arguments. */
export type ToolArguments = z.infer<typeof ToolArgumentsSchema>;

/**
 * One tool call inside a plan. `arguments` may hold references to other calls'
 * outputs: `{"$ref": "call_1"}`, optionally with a `$path` JSON Pointer.
 */
export const ToolCallSchema = z.object({
  /** Unique identifier inside the plan (and the run's history). */
  id: z.string().min(1, 'a tool call needs a non-empty id'),
  /** The tool to call. */
  name: z.string().min(1, 'a tool call needs a non-empty tool name'),
  /** The arguments object. */
  arguments: ToolArgumentsSchema.default({}),
  /** Calls that must finish before this one starts (in addition to `$ref` targets). */
  depends_on: z.array(z.string()).default([]),
  /** Optional short public summary of why the call is made; never private chain-of-thought. */
  reasoning: z.string().optional(),
});

/** A tool call as parsed (defaults applied). */
export type ToolCall = z.infer<typeof ToolCallSchema>;

/** A tool call as written: `arguments` and `depends_on` may be left out. */
export type ToolCallInput = z.input<typeof ToolCallSchema>;
