import { z } from 'zod';
import { MediaListsSchema } from './tool-output';

/**
 * Why a call did not succeed — an MTPX extension beside `error`, so programs can branch
 * on a failure without parsing text.
 */
export const ToolErrorCodeSchema = z.enum([
  /** The tool ran and failed. */
  'tool_error',
  /** The arguments did not match the tool's input schema, or a reference could not be resolved. */
  'invalid_arguments',
  /** No tool has this name. */
  'unknown_tool',
  /** The plan the call belongs to breaks a validation rule that concerns this call. */
  'invalid_plan',
  /** A call this one depends on failed, was skipped or was cancelled. */
  'dependency_failed',
  /** The call ran past its time limit. */
  'timeout',
  /** The run was cancelled before or while the call ran. */
  'cancelled',
  /** Policy asked for approval and none was given. */
  'approval_required',
  /** Policy denied the call. */
  'denied',
]);

/** Why a call did not succeed. */
export type ToolErrorCode = z.infer<typeof ToolErrorCodeSchema>;

/** The policy decision a call went through. */
export const ApprovalSchema = z.enum(['allow', 'ask', 'deny']);

/** `allow` | `ask` | `deny`. */
export type Approval = z.infer<typeof ApprovalSchema>;

/** The outcome of one call. Field names are the MTP wire names. */
export const ToolResultSchema = MediaListsSchema.extend({
  call_id: z.string(),
  tool_name: z.string(),
  /** The tool's primary output (a ToolOutput's `content`); `null` when the call failed. */
  output: z.json().nullable().default(null),
  success: z.boolean(),
  /** What went wrong, written for the model that must fix it. */
  error: z.string().nullable().optional(),
  /** Machine-readable reason for a failure (MTPX extension). */
  error_code: ToolErrorCodeSchema.optional(),
  /**
   * True when the call failed in a way that running it again may succeed (a rate limit, a
   * remote job lost with Redis's data, a deadline passed): it may or may not have run, and
   * a resumed run runs it again (with the same idempotency key) instead of answering with
   * this failure. Absent otherwise (MTPX extension).
   */
  retryable: z.boolean().optional(),
  /** True when the output came from cache or from an identical call in the same plan. */
  cached: z.boolean().default(false),
  /** The policy decision used. */
  approval: ApprovalSchema.optional(),
  /** True when the call was not run (policy, failed dependency, cancellation). */
  skipped: z.boolean().default(false),
  /** When this result object was made (ISO 8601). */
  created_at: z.iso.datetime({ offset: true }),
  /** When a cached copy of this result stops being reused (ISO 8601). */
  expires_at: z.iso.datetime({ offset: true }).nullable().optional(),
});

/** The outcome of one call, as parsed. */
export type ToolResult = z.infer<typeof ToolResultSchema>;

/** The outcome of one call, as written. */
export type ToolResultInput = z.input<typeof ToolResultSchema>;
