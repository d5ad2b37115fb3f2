import type { KnownResultSource, ResultRecorder } from '@mtpx/executor';
import type { Message, ToolResult, Usage } from '@mtpx/protocol';
import { AgentError } from '../agent-error';
import type { EagerDispatch } from '../run/eager-dispatch';
import type { StopReason } from '../run/run-output';
import type { RunRecord, Session } from '../session/session';
import {
  type JournaledCall,
  type JournaledRun,
  journalArgumentsHash,
  journalFailed,
  type RunJournal,
  replacesJournaledResult,
} from './run-journal';
import type { JournalWriteOptions, RunLeaseError } from './run-lease';
import type { RunLeaseKeeper } from './run-lease-keeper';

/** Where a run stands, as the journal records it after each model turn. */
export interface RunProgress {
  messages: Message[];
  rounds: number;
  usage: Usage;
  tool_results: ToolResult[];
  final_text: string;
}

/**
 * One run's side of its journal (internal): saves the run after each model turn, records
 * each call's result as it finishes (the writes go on while other calls run; `flush`
 * waits for them), and answers the calls a resumed run finished before. Every write carries
 * the run's lease token; a refused one declares the lease lost (which aborts the run).
 */
export class RunJournalRecorder {
  readonly journal: RunJournal;
  #run: JournaledRun;
  readonly #finished = new Map<string, ToolResult>();
  readonly #pending = new Set<Promise<void>>();
  #failure: AgentError | undefined;
  readonly #lease: RunLeaseKeeper | undefined;
  /**
   * Told when a call's result could not be written for good (after the journal's own
   * retries): the run cannot go on safely (its calls' results would not survive), so it
   * stops its calls at once instead of at its next save.
   */
  onWriteFailed: ((error: AgentError) => void) | undefined;
  /** Settles when a write fails for good. */
  readonly #failed: Promise<void>;
  #fail: () => void = () => {};

  constructor(
    journal: RunJournal,
    run: JournaledRun,
    finished: readonly JournaledCall[] = [],
    lease?: RunLeaseKeeper,
  ) {
    this.journal = journal;
    this.#run = run;
    this.#lease = lease;
    this.#failed = new Promise((resolve) => {
      this.#fail = resolve;
    });
    for (const call of finished) {
      this.#finished.set(keyOf(call.call_id, call.arguments_hash), call.result);
    }
  }

  /** Journals a new run (rejects with `run_journal_conflict` when its id is taken). */
  static async begin(
    journal: RunJournal,
    run: {
      runId: string;
      input: string;
      sessionId: string | undefined;
      userId: string | undefined;
      session: Session | undefined;
      streaming: boolean;
      eagerDispatch: EagerDispatch;
      maxRounds: number;
      toolCallLimit: number;
      progress: RunProgress;
      startedAt: string;
    },
    lease?: RunLeaseKeeper,
  ): Promise<RunJournalRecorder> {
    const recorder = new RunJournalRecorder(
      journal,
      {
        run_id: run.runId,
        status: 'running',
        input: run.input,
        ...(run.sessionId === undefined ? {} : { session_id: run.sessionId }),
        ...(run.userId === undefined ? {} : { user_id: run.userId }),
        ...(run.session === undefined ? {} : { session: run.session }),
        settings: {
          streaming: run.streaming,
          eager_dispatch: run.eagerDispatch,
          max_rounds: run.maxRounds,
          tool_call_limit: Number.isFinite(run.toolCallLimit) ? run.toolCallLimit : null,
        },
        ...run.progress,
        started_at: run.startedAt,
        updated_at: run.startedAt,
      },
      [],
      lease,
    );
    await recorder.save({});
    return recorder;
  }

  get runId(): string {
    return this.#run.run_id;
  }

  /**
   * The executor's `knownResult` hook: the result this run had for the same call (id and
   * arguments) before it was resumed, if any — the call is answered with it, not run again.
   */
  readonly knownResult: KnownResultSource = (call) => {
    const hash = journalArgumentsHash(call.name, call.arguments);
    return hash === undefined ? undefined : this.finishedResult(call.id, hash);
  };

  /**
   * The executor's `onResult` hook: each result is journaled as its call finishes. It runs
   * before the calls that wait for this one start: a run whose lease ran out meanwhile
   * (its process was paused) is stopped here, so they never start.
   */
  readonly onResult: ResultRecorder = (call, result) => {
    this.#lease?.check();
    const hash = journalArgumentsHash(call.name, call.arguments);
    if (hash !== undefined) this.recordCall(call.id, hash, result);
  };

  /**
   * True while the run surely holds its lease (checked by this process's clock); false —
   * and the run aborted — once it is lost. Asked before a call is handed to the executor.
   */
  checkLease(): boolean {
    return this.#lease?.check() ?? true;
  }

  /** The result of a call this run finished before (a resumed run), if any. */
  finishedResult(callId: string, argumentsHash: string): ToolResult | undefined {
    const result = this.#finished.get(keyOf(callId, argumentsHash));
    // A retryable failure (a lost remote job, a passed deadline) is run again, not replayed.
    return result === undefined || replacesJournaledResult(result) ? undefined : result;
  }

  /** Records a call's result; the write runs in the background until {@link flush}. */
  recordCall(callId: string, argumentsHash: string, result: ToolResult): void {
    const key = keyOf(callId, argumentsHash);
    const known = this.#finished.get(key);
    if (known !== undefined && !replacesJournaledResult(known)) return;
    this.#finished.set(key, result);
    const call: JournaledCall = { call_id: callId, arguments_hash: argumentsHash, result };
    const write = this.journal.recordCall(this.runId, call, this.#fence()).then(
      () => {},
      (error: unknown) => {
        this.#leaseRefused(error);
        if (this.#failure !== undefined) return;
        this.#failure = failure(`record the result of call "${callId}" of`, this.runId, error);
        this.#fail();
        this.onWriteFailed?.(this.#failure);
      },
    );
    this.#pending.add(write);
    void write.then(() => this.#pending.delete(write));
  }

  /** The first write of a call's result that failed for good, if one did. */
  get writeFailure(): AgentError | undefined {
    return this.#failure;
  }

  /** Waits for every call result recorded so far to be written; rejects if one was not. */
  async flush(): Promise<void> {
    // A write that failed for good ends the wait: the others may hang as long as the database does.
    while (this.#pending.size > 0 && this.#failure === undefined) {
      await Promise.race([Promise.all(this.#pending), this.#failed]);
    }
    if (this.#failure !== undefined) throw this.#failure;
  }

  /** Saves the run (compare-and-swap: a second process resuming the same run loses). */
  async save(changes: Partial<JournaledRun>): Promise<void> {
    const next: JournaledRun = { ...this.#run, ...changes, updated_at: new Date().toISOString() };
    try {
      await this.journal.save(next, this.#fence());
    } catch (error) {
      this.#leaseRefused(error);
      throw failure('save', this.runId, error);
    }
    this.#run = { ...next, version: (next.version ?? 0) + 1 };
  }

  /** The fencing of this run's writes: its lease token. */
  #fence(): JournalWriteOptions | undefined {
    return this.#lease === undefined ? undefined : { leaseToken: this.#lease.token };
  }

  /** A write refused for a stale token: the lease is lost (the run is aborted). */
  #leaseRefused(error: unknown): void {
    if (AgentError.isInstance(error) && error.code === 'run_lease_lost') {
      this.#lease?.markLost(error as RunLeaseError);
    }
  }

  /** A model turn was taken: the run as it stands now. */
  turnTaken(progress: RunProgress): Promise<void> {
    return this.save(progress);
  }

  /** The run ended: its last state, stop reason and the session's record of it. */
  async ended(progress: RunProgress, record: RunRecord): Promise<void> {
    await this.flush();
    await this.save({
      ...progress,
      status: record.status,
      ...(record.stop_reason === undefined
        ? {}
        : { stop_reason: record.stop_reason as StopReason }),
      record,
    });
  }
}

function keyOf(callId: string, argumentsHash: string): string {
  return `${callId}\u0000${argumentsHash}`;
}

function failure(action: string, runId: string, cause: unknown): AgentError {
  if (AgentError.isInstance(cause)) return cause;
  const reason = cause instanceof Error ? cause.message : String(cause);
  return journalFailed(`Could not ${action} run "${runId}" (journal): ${reason}`, cause);
}
