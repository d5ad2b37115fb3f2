import { MtpxError, type ToolResult } from '@mtpx/protocol';
import type { AgentError } from '../agent-error';
import type { JournaledCall, JournaledRun, RunJournal } from '../journal/run-journal';
import { RunJournalRecorder, type RunProgress } from '../journal/run-journal-recorder';
import { type LeaseSettings, RunLeaseKeeper } from '../journal/run-lease-keeper';
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
  /** How a journaled run takes its lease. */
  lease: LeaseSettings;
  /** Told when the run cannot go on: its lease was lost, or its journal failed for good (the run aborts its calls). */
  onFatal: (error: AgentError) => void;
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
  #lease: RunLeaseKeeper | undefined;
  #saveAttempted = false;

  constructor(options: RunStorageOptions) {
    this.#options = options;
  }

  /** The run's journal, once it is journaled. */
  get recorder(): RunJournalRecorder | undefined {
    return this.#recorder;
  }

  /**
   * Why the run cannot go on, if it cannot: its lease was lost (the error names the new
   * holder once the journal told), or a call's result could not be journaled for good.
   */
  async fatalError(): Promise<AgentError | undefined> {
    if (this.#lease?.lost !== undefined) return this.#lease.settledLoss();
    return this.#recorder?.writeFailure;
  }

  /** True once the run cannot go on (see {@link fatalError}). */
  get failedFatally(): boolean {
    return this.#lease?.lost !== undefined || this.#recorder?.writeFailure !== undefined;
  }

  /** Holds a resumed run's lease (taken by `agent.resume`) from now on: renewed, and lost as any. */
  holdLease(lease: RunLeaseKeeper): void {
    this.#lease = lease;
    lease.start(this.#options.onFatal);
  }

  /** Stops renewing the run's lease and releases it (once the run ended, whichever way). */
  async releaseLease(): Promise<void> {
    await this.#lease?.release();
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

  /**
   * Takes the new run's lease (`run_lease_held` when another process owns the id) and
   * journals it (a run whose id is taken rejects with `run_journal_conflict`).
   */
  async beginJournal(
    settings: JournaledSettings,
    progress: RunProgress,
    startedAt: string,
  ): Promise<void> {
    const { journal, runId } = this.#options;
    if (journal === undefined) return;
    this.holdLease(await RunLeaseKeeper.acquire(journal, runId, this.#options.lease));
    this.#recorder = await RunJournalRecorder.begin(
      journal,
      { ...this.#options, ...settings, session: this.#session, progress, startedAt },
      this.#lease,
    );
    this.#recorder.onWriteFailed = this.#options.onFatal;
  }

  /** Claims a resumed run's journal entry under its lease (a stale owner's writes are refused from now on). */
  async claimJournal(resumed: { run: JournaledRun; calls: JournaledCall[] }): Promise<void> {
    const { journal } = this.#options;
    if (journal === undefined) return;
    this.#recorder = new RunJournalRecorder(journal, resumed.run, resumed.calls, this.#lease);
    this.#recorder.onWriteFailed = this.#options.onFatal;
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
   * A journaled run that failed because its journal could not be written, or that lost its
   * lease, is left `running` in its journal (resumable; its session learns how it ended
   * from the resume).
   */
  async saveFailed(
    ended: { progress: RunProgress; startedAt: string },
    error: unknown,
  ): Promise<void> {
    const code = MtpxError.isInstance(error) ? error.code : undefined;
    if (
      this.#saveAttempted ||
      code === 'run_journal_conflict' ||
      code === 'run_lease_lost' ||
      code === 'run_lease_held' ||
      (code === 'run_journal_failed' && this.#recorder !== undefined)
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
