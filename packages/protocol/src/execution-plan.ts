import { z } from 'zod';
import { ToolCallSchema } from './tool-call';

/** How the calls of a batch run: all at once, or one after another in listed order. */
export const BatchModeSchema = z.enum(['parallel', 'sequential']);

/** `parallel` | `sequential`. */
export type BatchMode = z.infer<typeof BatchModeSchema>;

/** A group of calls run together. */
export const ToolBatchSchema = z.object({
  mode: BatchModeSchema.default('parallel'),
  calls: z.array(ToolCallSchema),
});

/** A batch as parsed. */
export type ToolBatch = z.infer<typeof ToolBatchSchema>;

/** A batch as written. */
export type ToolBatchInput = z.input<typeof ToolBatchSchema>;

/**
 * Ordered batches of calls. Usually derived from one model response by
 * `planFromToolCalls`; hand-written plans are checked by `validateExecutionPlan`.
 */
export const ExecutionPlanSchema = z.object({
  batches: z.array(ToolBatchSchema),
  /** Provider / planner metadata. */
  metadata: z.record(z.string(), z.unknown()).default({}),
});

/** A plan as parsed. */
export type ExecutionPlan = z.infer<typeof ExecutionPlanSchema>;

/** A plan as written. */
export type ExecutionPlanInput = z.input<typeof ExecutionPlanSchema>;
