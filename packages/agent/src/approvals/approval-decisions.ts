import type { ApprovalAnswer } from '@mtpx/executor';
import { AgentError, type AgentErrorCode } from '../agent-error';
import { type ApprovalSecret, signatureMatches } from './approval-signature';
import type { JournaledApproval, JournaledDecision } from './pending-approval';

/**
 * A person's decision on one pending approval, for `agent.resume(runId, { approvals })`.
 * `callId` and `argumentsDigest`, when given, must be the approval's own (a check that the
 * person saw what runs); `signature` is required when the agent has an `approvalSecret`.
 */
export interface ApprovalDecision {
  approvalId: string;
  /** `true` runs the call; `false` answers it denied (the model reads `reason`). */
  approved: boolean;
  /** Why it was declined, for the model. */
  reason?: string;
  callId?: string;
  argumentsDigest?: string;
  /** The pending approval's `signature`, handed back. */
  signature?: string;
}

/** What a run's journal says of its approvals. */
export interface ApprovalLedger {
  runId: string;
  pending: readonly JournaledApproval[];
  /** Approval ids already decided. */
  used: readonly string[];
}

/** The ledger of a journaled run. */
export function ledgerOf(run: {
  run_id: string;
  pending_approvals?: JournaledApproval[] | undefined;
  approval_decisions?: JournaledDecision[] | undefined;
}): ApprovalLedger {
  return {
    runId: run.run_id,
    pending: run.pending_approvals ?? [],
    used: (run.approval_decisions ?? []).map((decision) => decision.approval_id),
  };
}

/** Every decision the journal holds, as answers by approval id. */
export function journaledAnswers(
  decisions: readonly JournaledDecision[] | undefined,
): Map<string, ApprovalAnswer> {
  const answers = new Map<string, ApprovalAnswer>();
  for (const decision of decisions ?? []) answers.set(decision.approval_id, answerOf(decision));
  return answers;
}

/** The journal's form of checked answers. */
export function journaledDecisions(
  answers: ReadonlyMap<string, ApprovalAnswer>,
): JournaledDecision[] {
  const decidedAt = new Date().toISOString();
  return [...answers].map(([approvalId, answer]) => ({
    approval_id: approvalId,
    approved: answer.approved,
    ...(answer.approved === false && answer.reason !== undefined ? { reason: answer.reason } : {}),
    decided_at: decidedAt,
  }));
}

function answerOf(decision: JournaledDecision): ApprovalAnswer {
  if (decision.approved) return { approved: true };
  return decision.reason === undefined
    ? { approved: false }
    : { approved: false, reason: decision.reason };
}

/**
 * Checks every decision against the run's pending approvals before anything runs: an
 * unknown id or a wrong signature is `approval_invalid`, another call or other arguments
 * `approval_mismatch`, an approval decided before `approval_used`. Resolves with each
 * approval's answer, by approval id.
 */
export function checkDecisions(
  ledger: ApprovalLedger,
  decisions: unknown,
  secret: ApprovalSecret | undefined,
): Map<string, ApprovalAnswer> {
  if (!Array.isArray(decisions)) {
    throw refused('approval_invalid', 'approvals must be a list of decisions.');
  }
  const pending = new Map(ledger.pending.map((approval) => [approval.approval_id, approval]));
  const used = new Set(ledger.used);
  const answers = new Map<string, ApprovalAnswer>();
  for (const decision of decisions as unknown[]) {
    const { approvalId, approved, reason } = shapeOf(decision);
    if (answers.has(approvalId)) {
      throw refused('approval_invalid', `Approval ${approvalId} was decided twice in one resume.`);
    }
    if (used.has(approvalId)) {
      throw refused(
        'approval_used',
        `Approval ${approvalId} of run "${ledger.runId}" was already decided; a decision acts once.`,
      );
    }
    const approval = pending.get(approvalId);
    if (approval === undefined) {
      throw refused(
        'approval_invalid',
        `Run "${ledger.runId}" has no pending approval ${approvalId}.`,
      );
    }
    const given = decision as ApprovalDecision;
    if (given.callId !== undefined && given.callId !== approval.call_id) {
      throw refused(
        'approval_mismatch',
        `Approval ${approvalId} is for call ${approval.call_id}, not ${String(given.callId)}.`,
      );
    }
    if (
      given.argumentsDigest !== undefined &&
      given.argumentsDigest !== approval.arguments_digest
    ) {
      throw refused(
        'approval_mismatch',
        `Approval ${approvalId} is for other arguments of "${approval.tool_name}" than the decision names.`,
      );
    }
    if (secret !== undefined) {
      const fields = {
        approvalId,
        runId: ledger.runId,
        callId: approval.call_id,
        toolName: approval.tool_name,
        argumentsDigest: approval.arguments_digest,
      };
      if (!signatureMatches(secret, fields, given.signature)) {
        throw refused(
          'approval_invalid',
          `The decision for approval ${approvalId} is not signed for this run, call, tool and arguments.`,
        );
      }
    }
    answers.set(
      approvalId,
      approved
        ? { approved: true }
        : { approved: false, ...(reason === undefined ? {} : { reason }) },
    );
  }
  return answers;
}

function shapeOf(decision: unknown): { approvalId: string; approved: boolean; reason?: string } {
  const value = decision as Partial<ApprovalDecision> | null;
  if (
    typeof value !== 'object' ||
    value === null ||
    typeof value.approvalId !== 'string' ||
    typeof value.approved !== 'boolean' ||
    (value.reason !== undefined && typeof value.reason !== 'string')
  ) {
    throw refused(
      'approval_invalid',
      'A decision is { approvalId: string, approved: boolean, reason?: string, … }.',
    );
  }
  return {
    approvalId: value.approvalId,
    approved: value.approved,
    ...(value.reason === undefined ? {} : { reason: value.reason.slice(0, 2000) }),
  };
}

function refused(code: AgentErrorCode, message: string): AgentError {
  return new AgentError({ code, message });
}
