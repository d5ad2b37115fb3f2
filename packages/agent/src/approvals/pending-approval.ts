import type { ApprovalRequest } from '@mtpx/executor';
import { type JsonObject, type RiskLevel, RiskLevelSchema } from '@mtpx/protocol';
import { z } from 'zod';

/**
 * A call of a run that waits for a person's decision, as the run journal keeps it.
 * @internal
 */
export const JournaledApprovalSchema = z.object({
  approval_id: z.string().min(1),
  call_id: z.string(),
  tool_name: z.string(),
  /** The arguments as the tool would receive them (`$ref`s resolved). */
  arguments: z.record(z.string(), z.json()),
  /** Hex SHA-256 of their canonical JSON. */
  arguments_digest: z.string().min(1),
  risk_level: RiskLevelSchema,
  reason: z.string(),
  /** The calls its arguments' `$ref`s name. */
  references: z.array(z.string()),
  /** Calls of its round that cannot run before it is decided (they need its output). */
  waiting: z.array(z.string()),
  round: z.number().int().positive(),
  requested_at: z.iso.datetime({ offset: true }),
  /** HMAC of the request with the agent's `approvalSecret`, when it has one. */
  signature: z.string().optional(),
});

/**
 * A decision a resume took, as the run journal keeps it.
 * @internal
 */
export const JournaledDecisionSchema = z.object({
  approval_id: z.string().min(1),
  approved: z.boolean(),
  reason: z.string().optional(),
  decided_at: z.iso.datetime({ offset: true }),
});

/** A decision as the journal keeps it. */
export type JournaledDecision = z.infer<typeof JournaledDecisionSchema>;

/** A pending approval as the journal keeps it. */
export type JournaledApproval = z.infer<typeof JournaledApprovalSchema>;

/**
 * A call that waits for a person's decision: what it would do, why it needs approval, and
 * what waits on it. `agent.resume(runId, { approvals })` takes decisions for it, naming
 * `approvalId` (and, when the agent has an `approvalSecret`, returning `signature`).
 */
export interface PendingApproval {
  /** `apr_…`: stable for this run, call, tool and arguments. */
  approvalId: string;
  runId: string;
  callId: string;
  toolName: string;
  /** The arguments as the tool would receive them (`$ref`s resolved). */
  arguments: JsonObject;
  /** Hex SHA-256 of their canonical JSON: a decision is bound to it. */
  argumentsDigest: string;
  riskLevel: RiskLevel;
  /** Why it needs approval, for people. */
  reason: string;
  /** The calls its arguments' `$ref`s name (the outputs its arguments came from). */
  references: string[];
  /** Calls of its round that wait on it: they run (or are skipped) once it is decided. */
  waiting: string[];
  /** The round of the run its call belongs to. */
  round: number;
  /** When it was asked for (ISO 8601). */
  requestedAt: string;
  /** Hand it back with the decision when the agent has an `approvalSecret`. */
  signature?: string;
}

/** The journal's form of an executor approval request. */
export function journaledApproval(
  request: ApprovalRequest,
  round: number,
  references: string[],
  signature: string | undefined,
): JournaledApproval {
  return {
    approval_id: request.approvalId,
    call_id: request.call.id,
    tool_name: request.toolName,
    arguments: request.arguments,
    arguments_digest: request.argumentsDigest,
    risk_level: request.riskLevel,
    reason: request.reason,
    references,
    waiting: [],
    round,
    requested_at: new Date().toISOString(),
    ...(signature === undefined ? {} : { signature }),
  };
}

/** The public form of a journaled pending approval. */
export function pendingApproval(runId: string, approval: JournaledApproval): PendingApproval {
  return {
    approvalId: approval.approval_id,
    runId,
    callId: approval.call_id,
    toolName: approval.tool_name,
    arguments: approval.arguments as JsonObject,
    argumentsDigest: approval.arguments_digest,
    riskLevel: approval.risk_level,
    reason: approval.reason,
    references: [...approval.references],
    waiting: [...approval.waiting],
    round: approval.round,
    requestedAt: approval.requested_at,
    ...(approval.signature === undefined ? {} : { signature: approval.signature }),
  };
}
