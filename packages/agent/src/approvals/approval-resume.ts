import type { ApprovalAnswer } from '@mtpx/executor';
import type { JournaledRun, RunJournal } from '../journal/run-journal';
import type { RunJournalRecorder, RunProgress } from '../journal/run-journal-recorder';
import {
  checkDecisions,
  journaledAnswers,
  journaledDecisions,
  ledgerOf,
} from './approval-decisions';
import type { ApprovalSecret } from './approval-signature';
import type { JournaledApproval } from './pending-approval';

/**
 * A resume's decisions, checked against the journaled run before anything runs (typed
 * errors: `approval_invalid`, `approval_mismatch`, `approval_used`): the run as the
 * resume claims it — `running`, the new decisions journaled as used, no pending list —
 * and every answer the resumed run applies (earlier resumes' too, for a run that stopped
 * after one).
 */
export function claimWithDecisions(
  run: JournaledRun,
  decisions: unknown,
  secret: ApprovalSecret | undefined,
): { run: JournaledRun; answers: Map<string, ApprovalAnswer> } {
  const fresh =
    decisions === undefined
      ? new Map<string, ApprovalAnswer>()
      : checkDecisions(ledgerOf(run), decisions, secret);
  const answers = journaledAnswers(run.approval_decisions);
  for (const [approvalId, answer] of fresh) answers.set(approvalId, answer);
  const { pending_approvals: _pending, ...rest } = run;
  const claimed: JournaledRun = { ...rest, status: 'running' };
  if (fresh.size > 0 || run.approval_decisions !== undefined) {
    claimed.approval_decisions = [...(run.approval_decisions ?? []), ...journaledDecisions(fresh)];
  }
  return { run: claimed, answers };
}

/**
 * The run stops for a person: every result recorded so far is written, then the run is
 * journaled `waiting` with its pending approvals (its last turn's calls run again, or are
 * answered from the journal, when it is resumed).
 */
export async function journalWaiting(
  recorder: RunJournalRecorder | undefined,
  progress: RunProgress,
  pending: JournaledApproval[],
): Promise<void> {
  if (recorder === undefined) return;
  await recorder.flush();
  await recorder.save({
    ...progress,
    status: 'waiting',
    stop_reason: 'awaiting_approval',
    pending_approvals: pending,
  });
}

/**
 * Decisions sent for a run that has ended: each is refused — `approval_used` for one
 * decided before (a replay), `approval_invalid` for one the run never asked for. Nothing
 * when there are none.
 */
export async function refuseDecisionsForEnded(
  journal: RunJournal,
  runId: string,
  decisions: unknown,
  secret: ApprovalSecret | undefined,
): Promise<void> {
  if (decisions === undefined || (Array.isArray(decisions) && decisions.length === 0)) return;
  const run = await journal.get(runId);
  if (run === undefined) return;
  checkDecisions({ ...ledgerOf(run), pending: [] }, decisions, secret);
}
