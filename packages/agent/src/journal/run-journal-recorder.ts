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
} from './run-journal';

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
 * waits for them), and answers the calls a resumed run finished before.
 */
export class RunJournalRecorder {
  readonly journal: RunJournal;
  #run: JournaledRun;
  readonly #finished = new Map<string, ToolResult>();
  readonly #pending = new Set<Promise<void>>();
  #failure: AgentError | undefined;

  constructor(journal: RunJournal, run: JournaledRun, finished: readonly JournaledCall[] = []) {
    this.journal = journal;
    this.#run = run;
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
  ): Promise<RunJournalRecorder> {
    const recorder = new RunJournalRecorder(journal, {
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
    });
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

  /** The executor's `onResult` hook: each result is journaled as its call finishes. */
  readonly onResult: ResultRecorder = (call, result) => {
    const hash = journalArgumentsHash(call.name, call.arguments);
    if (hash !== undefined) this.recordCall(call.id, hash, result);
  };

  /** The result of a call this run finished before (a resumed run), if any. */
  finishedResult(callId: string, argumentsHash: string): ToolResult | undefined {
    return this.#finished.get(keyOf(callId, argumentsHash));
  }

  /** Records a call's result; the write runs in the background until {@link flush}. */
  recordCall(callId: string, argumentsHash: string, result: ToolResult): void {
    const key = keyOf(callId, argumentsHash);
    if (this.#finished.has(key)) return;
    this.#finished.set(key, result);
    const call: JournaledCall = { call_id: callId, arguments_hash: argumentsHash, result };
    const write = this.journal.recordCall(this.runId, call).then(
      () => {},
      (error: unknown) => {
        this.#failure ??= failure(`record the result of call "${callId}" of`, this.runId, error);
      },
    );
    this.#pending.add(write);
    void write.then(() => this.#pending.delete(write));
  }

  /** Waits for every call result recorded so far to be written; rejects if one was not. */
  async flush(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all(this.#pending);
    if (this.#failure !== undefined) throw this.#failure;
  }

  /** Saves the run (compare-and-swap: a second process resuming the same run loses). */
  async save(changes: Partial<JournaledRun>): Promise<void> {
    const next: JournaledRun = { ...this.#run, ...changes, updated_at: new Date().toISOString() };
    try {
      await this.journal.save(next);
    } catch (error) {
      throw failure('save', this.runId, error);
    }
    this.#run = { ...next, version: (next.version ?? 0) + 1 };
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
