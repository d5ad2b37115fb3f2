import { MtpxError, type ToolResult } from '@mtpx/protocol';
import type { JournaledCall, JournaledRun, RunJournal } from '../journal/run-journal';
import { RunJournalRecorder, type RunProgress } from '../journal/run-journal-recorder';
import { runRecord } from '../session/run-record';
import { newSession, type RunRecord, type Session, type SessionStore } from '../session/session';
import type { EagerDispatch } from './eager-dispatch';
import type { StopReason } from './run-output';

/** Who runs, and where the run is kept. */
export interface RunStorageOptions {
  runId: string;
  input: string;
  sessionId: string | undefined;
  userId: string | undefined;
  sessionStore: SessionStore;
  /** Where the run is journaled so that it can be resumed, if anywhere. */
  journal: RunJournal | undefined;
}

/** What a new run's journal entry records of its settings. */
export interface JournaledSettings {
  streaming: boolean;
  eagerDispatch: EagerDispatch;
  maxRounds: number;
  toolCallLimit: number;
}

/**
 * Where one run keeps what it did: its session (read when the run starts, saved with the
 * run's record when it ends, failed runs too) and its journal (the run's state after each
 * model turn, and how it ended — before the session learns it, so that a crash between the
 * two is resumed as ended).
 */
export class RunStorage {
  readonly #options: RunStorageOptions;
  #session: Session | undefined;
  #recorder: RunJournalRecorder | undefined;
  #saveAttempted = false;

  constructor(options: RunStorageOptions) {
    this.#options = options;
  }

  /** The run's journal, once it is journaled. */
  get recorder(): RunJournalRecorder | undefined {
    return this.#recorder;
  }

  /** The session's stored messages, or none when the run has no session (a new session has none). */
  async loadSession(): Promise<Session | undefined> {
    const { sessionId, userId, sessionStore } = this.#options;
    if (sessionId === undefined) return undefined;
    const stored = await sessionStore.get(sessionId, userId === undefined ? {} : { userId });
    this.#session = stored ?? newSession(sessionId, userId);
    return this.#session;
  }

  /** A resumed run's session is the one its journal entry kept. */
  restoreSession(run: JournaledRun): Session | undefined {
    this.#session = run.session;
    return run.session;
  }

  /** Journals a new run (a run whose id is taken rejects with `run_journal_conflict`). */
  async beginJournal(
    settings: JournaledSettings,
    progress: RunProgress,
    startedAt: string,
  ): Promise<void> {
    const { journal } = this.#options;
    if (journal === undefined) return;
    this.#recorder = await RunJournalRecorder.begin(journal, {
      ...this.#options,
      ...settings,
      session: this.#session,
      progress,
      startedAt,
    });
  }

  /** Claims a resumed run's journal entry (a second process resuming it then loses). */
  async claimJournal(resumed: { run: JournaledRun; calls: JournaledCall[] }): Promise<void> {
    const { journal } = this.#options;
    if (journal === undefined) return;
    this.#recorder = new RunJournalRecorder(journal, resumed.run, resumed.calls);
    await this.#recorder.save({});
  }

  /** Records the run's end in its journal, then in its session (`failed` without a stop reason). */
  async save(
    ended: { progress: RunProgress; startedAt: string; stopReason: StopReason | undefined },
    error?: unknown,
  ): Promise<void> {
    const { progress } = ended;
    const record = runRecord({ ...this.#options, ...progress, ...ended, error });
    const session = this.#session;
    if (session === undefined) {
      await this.#endJournal(progress, record, error);
      return;
    }
    this.#saveAttempted = true;
    await this.#endJournal(progress, record, error);
    await this.#options.sessionStore.save({
      ...session,
      messages: progress.messages,
      runs: [...session.runs, record],
      updated_at: record.finished_at,
    });
    // Compare-and-swap: the stored copy is now one version further.
    session.version = (session.version ?? 0) + 1;
  }

  /**
   * Keeps what a failed run did (calls may have run) in its session, unless saving is what
   * failed or another process took the run over; the run's own error wins over this one's.
   */
  async saveFailed(
    ended: { progress: RunProgress; startedAt: string },
    error: unknown,
  ): Promise<void> {
    if (
      this.#saveAttempted ||
      (MtpxError.isInstance(error) && error.code === 'run_journal_conflict')
    )
      return;
    await this.save({ ...ended, stopReason: undefined }, error).catch(() => {});
  }

  async #endJournal(progress: RunProgress, record: RunRecord, error: unknown): Promise<void> {
    const ended = this.#recorder?.ended(progress, record);
    // A failed run keeps its own error; the journal's is secondary.
    if (error === undefined) await ended;
    else await ended?.catch(() => {});
  }
}

/** Every result of the session's earlier runs, by call id (what a `$ref` may name). */
export function sessionResults(session: Session, into: Map<string, ToolResult>): void {
  for (const run of session.runs) {
    for (const result of run.tool_results) {
      if (result.call_id !== '') into.set(result.call_id, result);
    }
  }
}
