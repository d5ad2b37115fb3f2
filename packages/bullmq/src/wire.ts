import * as crypto from 'node:crypto';
import { isJsonObject, type JsonObject, MediaListsSchema } from '@mtpx/protocol';
import { z } from 'zod';
import { RemoteToolError } from './errors';

/** What the orchestrator puts in a job: one call, with its `$ref`s already resolved. */
export interface CallJobData {
  /** The tool to run (its name as the model sees it). */
  tool: string;
  /** The call's id in its run. */
  callId: string;
  /** The run's id; `null` when the caller gave none. */
  runId: string | null;
  /** The resolved arguments, as JSON (the worker parses them with the tool's schema). */
  args: JsonObject;
  /**
   * The call's `ToolContext.idempotencyKey`, when the orchestrator sent it. Absent, the
   * worker computes it from the same run id, call id and resolved arguments
   * (`idempotencyKeyOf`, the executor's one rule) — the same key — and only when the tool
   * reads it.
   */
  idempotencyKey?: string;
}

/** What a worker answers: the tool's output (with any media), or its failure. */
export type CallJobResult =
  | { ok: true; content: unknown; media?: z.infer<typeof MediaListsSchema> }
  | { ok: false; code: string; message: string };

const CallJobDataSchema = z.object({
  tool: z.string().min(1),
  callId: z.string(),
  runId: z.string().nullable(),
  args: z.custom<JsonObject>(isJsonObject, 'arguments must be a JSON object'),
  idempotencyKey: z.string().min(1).optional(),
});

const CallJobResultSchema = z.union([
  z.object({ ok: z.literal(true), content: z.unknown(), media: MediaListsSchema.optional() }),
  z.object({ ok: z.literal(false), code: z.string(), message: z.string() }),
]);

/** A job's data checked against {@link CallJobData} (a queue may hold anyone's jobs). */
export function parseJobData(data: unknown): CallJobData {
  // The shape every MTPX job has, checked by hand (this runs once per call on the worker's
  // hot path); anything else goes through the schema for its error message.
  const job = data as Partial<CallJobData> | null;
  if (
    typeof job === 'object' &&
    job !== null &&
    typeof job.tool === 'string' &&
    job.tool !== '' &&
    typeof job.callId === 'string' &&
    (job.runId === null || typeof job.runId === 'string') &&
    (job.idempotencyKey === undefined ||
      (typeof job.idempotencyKey === 'string' && job.idempotencyKey !== '')) &&
    isJsonObject(job.args)
  ) {
    return job as CallJobData;
  }
  const parsed = CallJobDataSchema.safeParse(data);
  if (parsed.success) return parsed.data as CallJobData;
  throw new RemoteToolError({
    code: 'invalid_job',
    message: `A job on the tool queue is not an MTPX call: ${parsed.error.issues.map((issue) => issue.message).join('; ')}.`,
  });
}

/** A worker's answer checked against {@link CallJobResult}. */
export function parseJobResult(value: unknown): CallJobResult {
  // The common answer (a success without media) checked by hand: once per call on the
  // orchestrator's hot path.
  const answer = value as { ok?: unknown; media?: unknown; content?: unknown } | null;
  if (
    typeof answer === 'object' &&
    answer !== null &&
    answer.ok === true &&
    answer.media === undefined &&
    'content' in answer
  ) {
    return answer as CallJobResult;
  }
  const parsed = CallJobResultSchema.safeParse(value);
  if (parsed.success) return parsed.data as CallJobResult;
  throw new RemoteToolError({
    code: 'invalid_job',
    message: `A worker answered a call in a shape this package does not write: ${parsed.error.issues.map((issue) => issue.message).join('; ')}.`,
  });
}

/**
 * The job id of a call: `call-` + the first 40 hex digits of SHA-256 over the canonical
 * JSON of `[runId, callId]`. The same call of the same run always gets the same id, so
 * BullMQ refuses to enqueue it twice (a second `add` is a `duplicated` event). Without a
 * run id there is no identity to keep: each dispatch gets a fresh random id.
 * @internal
 */
export function jobIdOf(runId: string | undefined, callId: string): string {
  if (runId === undefined) return `call-${crypto.randomUUID()}`;
  // Two strings: JSON.stringify writes exactly their canonical JSON, at a fraction of the cost.
  return `call-${sha256Hex(JSON.stringify([runId, callId])).slice(0, 40)}`;
}

/** Node's one-shot `crypto.hash` (20.12+, no Hash object per call), else `createHash`. */
const oneShot = (crypto as { hash?: (algorithm: string, data: string) => string }).hash;
const sha256Hex: (text: string) => string =
  typeof oneShot === 'function'
    ? (text) => oneShot('sha256', text)
    : (text) => crypto.createHash('sha256').update(text).digest('hex');
