import type { AssistantMessage, Message } from '@mtpx/protocol';
import { AgentError } from '../agent-error';
import type { ApprovalDecision } from '../approvals/approval-decisions';
import type { AgentEventHandler } from '../events/agent-events';
import { type RunOutput, runOutput } from '../run/run-output';
import { newSession, type SessionStore } from '../session/session';
import {
  type JournaledCall,
  type JournaledRun,
  journalFailed,
  type RunJournal,
} from './run-journal';

/** Options of `agent.resume`. */
export interface AgentResumeOptions {
  /** Aborting it cancels the resumed run, as for `run()`. */
  signal?: AbortSignal;
  /** Receives every event of the resumed part of the run (`run-started` has `resumed: true`). */
  onEvent?: AgentEventHandler;
  /**
   * When another process's lease on the run is live, wait up to this many milliseconds
   * for it to expire or be released before refusing with `run_lease_held`. Default 0:
   * refuse at once.
   */
  waitForLeaseMs?: number;
  /**
   * Decisions on the run's pending approvals (`output.pendingApprovals`), all at once or
   * some of them: approved calls run, denied ones are answered denied (the model reads the
   * reason), undecided ones stay pending. Checked before anything runs; refused with
   * `approval_invalid`, `approval_mismatch` or `approval_used`.
   */
  approvals?: ApprovalDecision[];
}

/** What the journal holds for a run `resume` was asked for. */
export type ResumableRun =
  /** The run ended (its output); its session has its record. */
  | { output: RunOutput }
  /** The run was still going when its process stopped: go on from here. */
  | { run: JournaledRun; calls: JournaledCall[] };

/**
 * Reads a run from the journal for `agent.resume`. A run that ended is not run again: its
 * output comes back, and its record is saved to its session if the process died between
 * journaling the end and saving the session. A failed run, or one not in the journal, is
 * `run_not_resumable`.
 */
export async function loadResumableRun(
  journal: RunJournal,
  sessionStore: SessionStore,
  runId: string,
): Promise<ResumableRun> {
  const run = await readJournal(`read run "${runId}" from`, () => journal.get(runId));
  if (run === undefined) {
    throw new AgentError({
      code: 'run_not_resumable',
      message: `Run "${runId}" is not in the journal: only runs of an agent with the same journal can be resumed.`,
    });
  }
  if (run.status === 'failed') {
    throw new AgentError({
      code: 'run_not_resumable',
      message: `Run "${runId}" failed${run.record?.error ? ` (${run.record.error})` : ''}; a failed run is not resumed: start a new one.`,
    });
  }
  if (run.status === 'running' || run.status === 'waiting') {
    const calls = await readJournal(`read the calls of run "${runId}" from`, () =>
      journal.calls(runId),
    );
    return { run, calls };
  }
  await saveMissingRecord(run, sessionStore);
  return { output: outputOf(run) };
}

/**
 * Where a resumed run starts: the conversation before its last model turn, that turn (its
 * calls run or are answered first, and the model is not asked for it again), and the
 * rounds before it. Without a saved turn (the run died before its first model turn
 * ended), the model is asked next.
 */
export function resumePoint(run: JournaledRun): {
  messages: Message[];
  resumedTurn: AssistantMessage | undefined;
  rounds: number;
} {
  const messages = [...run.messages] as Message[];
  const last = messages.at(-1);
  if (last?.role !== 'assistant') return { messages, resumedTurn: undefined, rounds: run.rounds };
  messages.pop();
  return { messages, resumedTurn: last, rounds: run.rounds - 1 };
}

/** The output of a run that ended, from its journal entry. */
export function outputOf(run: JournaledRun): RunOutput {
  return runOutput({
    runId: run.run_id,
    finalText: run.final_text,
    messages: run.messages,
    toolResults: run.tool_results,
    rounds: run.rounds,
    usage: run.usage,
    stopReason: run.stop_reason ?? (run.status === 'cancelled' ? 'cancelled' : 'final'),
    ...(run.session_id === undefined ? {} : { sessionId: run.session_id }),
  });
}

async function saveMissingRecord(run: JournaledRun, sessionStore: SessionStore): Promise<void> {
  const { session_id: sessionId, record } = run;
  if (sessionId === undefined || record === undefined) return;
  const stored = await sessionStore.get(
    sessionId,
    run.user_id === undefined ? {} : { userId: run.user_id },
  );
  if (stored?.runs.some((saved) => saved.run_id === run.run_id)) return;
  const session = run.session ?? newSession(sessionId, run.user_id);
  await sessionStore.save({
    ...session,
    messages: run.messages,
    runs: [...session.runs, record],
    updated_at: record.finished_at,
  });
}

async function readJournal<T>(action: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (AgentError.isInstance(error)) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw journalFailed(`Could not ${action} the journal: ${reason}`, error);
  }
}
