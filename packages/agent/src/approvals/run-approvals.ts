import type { ApprovalAnswer, PlanApprovals } from '@mtpx/executor';
import { findRefs } from '@mtpx/protocol';
import { type ApprovalSecret, approvalSignature } from './approval-signature';
import {
  type JournaledApproval,
  journaledApproval,
  type PendingApproval,
  pendingApproval,
} from './pending-approval';

/** What a run's approvals are made with. */
export interface RunApprovalsOptions {
  runId: string;
  /** Signs each pending approval (the agent's `approvalSecret`). */
  secret?: ApprovalSecret | undefined;
  /** Decisions already made (a resume's, checked), by approval id. */
  answers?: ReadonlyMap<string, ApprovalAnswer>;
}

/**
 * One run's approvals that outlive its process (internal): the decisions a resume brought,
 * handed to each round's plan execution (`approvals.decided`), and the calls the round
 * left pending — each with the calls that wait on it — for the run to stop on and journal.
 */
export class RunApprovals {
  readonly #runId: string;
  readonly #secret: ApprovalSecret | undefined;
  readonly #answers: ReadonlyMap<string, ApprovalAnswer>;
  readonly #pending = new Map<string, JournaledApproval>();
  /** A waiting call → the call it needs (which waits for approval, or waits itself). */
  readonly #waitsOn = new Map<string, string>();

  constructor(options: RunApprovalsOptions) {
    this.#runId = options.runId;
    this.#secret = options.secret;
    this.#answers = options.answers ?? new Map();
  }

  /** The plan execution's `approvals` option for one round. */
  forRound(round: number): PlanApprovals {
    return {
      decided: (request) => this.#answers.get(request.approvalId),
      pending: (request) => {
        const signature =
          this.#secret === undefined
            ? undefined
            : approvalSignature(this.#secret, {
                approvalId: request.approvalId,
                runId: this.#runId,
                callId: request.call.id,
                toolName: request.toolName,
                argumentsDigest: request.argumentsDigest,
              });
        const references = [...new Set(findRefs(request.call.arguments))];
        this.#pending.set(
          request.call.id,
          journaledApproval(request, round, references, signature),
        );
      },
      waiting: (call) => {
        this.#waitsOn.set(call.callId, call.waitsOn);
      },
    };
  }

  /** True when a call of the round waits for a decision. */
  get hasPending(): boolean {
    return this.#pending.size > 0;
  }

  /** `pendingApprovals` for a run's output, when it stopped for them. */
  outputFields(stopReason: string): { pendingApprovals?: PendingApproval[] } {
    return stopReason === 'awaiting_approval' ? { pendingApprovals: this.pendingApprovals() } : {};
  }

  /** The round's pending approvals as `RunOutput.pendingApprovals` shows them. */
  pendingApprovals(): PendingApproval[] {
    return this.pending().map((approval) => pendingApproval(this.#runId, approval));
  }

  /**
   * The round's pending approvals, in the order they were asked for, each listing the calls
   * that wait on it (directly or through other waiting calls).
   */
  pending(): JournaledApproval[] {
    const list = [...this.#pending.values()].map((approval) => ({
      ...approval,
      waiting: [] as string[],
    }));
    const byCall = new Map(list.map((approval) => [approval.call_id, approval]));
    for (const callId of this.#waitsOn.keys()) {
      let target = this.#waitsOn.get(callId);
      const seen = new Set<string>([callId]);
      while (target !== undefined && !byCall.has(target) && !seen.has(target)) {
        seen.add(target);
        target = this.#waitsOn.get(target);
      }
      const root = target === undefined ? undefined : byCall.get(target);
      root?.waiting.push(callId);
    }
    return list;
  }
}

/**
 * A run's approvals when it is journaled (only a journaled run can wait for a person: its
 * turn stays unanswered until it is resumed).
 */
export function runApprovalsOf(
  settings: { journal: unknown; approvalSecret?: ApprovalSecret | undefined },
  request: { runId: string; resumed?: { answers?: ReadonlyMap<string, ApprovalAnswer> } },
): RunApprovals | undefined {
  if (settings.journal === undefined) return undefined;
  const answers = request.resumed?.answers;
  return new RunApprovals({
    runId: request.runId,
    secret: settings.approvalSecret,
    ...(answers === undefined ? {} : { answers }),
  });
}
