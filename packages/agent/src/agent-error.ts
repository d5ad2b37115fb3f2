import { MtpxError } from '@mtpx/protocol';

const markerName = 'mtpx.error.AgentError';
const marker = Symbol.for(markerName);

/** What went wrong, for programs to branch on. */
export type AgentErrorCode =
  /** `createAgent`, `run`, `stream` or `asTool` got an option that cannot work. */
  | 'invalid_option'
  /** A session was read (or deleted) with a `userId` other than its owner's. */
  | 'session_access_denied'
  /**
   * A session was not saved: another run or process saved (or created, or deleted) it
   * after this run read it. Load it again and retry.
   */
  | 'session_conflict'
  /** A stored session is not valid JSON or not a session. */
  | 'invalid_session'
  /** A session store could not read or write. */
  | 'session_store_failed'
  /** A run journal could not read or write, or holds something that is not a run. */
  | 'run_journal_failed'
  /** A run's journal entry was written by another process (a run id reused, or a run resumed twice). */
  | 'run_journal_conflict'
  /**
   * Another holder's lease on the run is live: `resume` (or `run` with a taken run id)
   * was refused. A {@link RunLeaseError} naming the holder and when its lease expires.
   */
  | 'run_lease_held'
  /**
   * This process lost the run's lease (another holder took the run, or the lease expired
   * before it was renewed): the run stopped and its in-flight calls were aborted. A
   * {@link RunLeaseError}; the run stays resumable.
   */
  | 'run_lease_lost'
  /** `resume` was asked for a run that is not in the journal, or that failed. */
  | 'run_not_resumable'
  /** A provider broke the `Provider` contract (a stream that ended without `finish`). */
  | 'invalid_provider_response'
  /** A stream's events were iterated a second time (one consumer; use `onEvent` for more). */
  | 'events_already_iterated'
  /**
   * `resume` got an approval decision the run never asked for, or whose signature is
   * missing or wrong (forged): nothing ran.
   */
  | 'approval_invalid'
  /** `resume` got a decision naming another call, tool or arguments than its approval: nothing ran. */
  | 'approval_mismatch'
  /** `resume` got a decision for an approval that was already decided (a replay): nothing ran. */
  | 'approval_used';

/**
 * The error the agent raises for the caller's mistakes and infrastructure failures. A
 * model's mistakes never become an `AgentError`: they are error tool results the model
 * reads in its next round. A provider's failure reaches you as the provider's own error
 * (a `ProviderError` from `@mtpx/providers`), unwrapped.
 *
 * @example
 * ```ts source="./agent-error.examples.ts#AgentError"
 * try {
 *   await agent.run('Hi', { sessionId: 'chat-1', userId: 'mallory' });
 * } catch (error) {
 *   if (AgentError.isInstance(error) && error.code === 'session_access_denied') deny();
 * }
 * ```
 */
export class AgentError extends MtpxError<AgentErrorCode> {
  protected readonly [marker] = true;

  constructor(options: { code: AgentErrorCode; message: string; cause?: unknown }) {
    super(options);
    this.name = 'AgentError';
  }

  static override isInstance(error: unknown): error is AgentError {
    return MtpxError.hasMarker(error, markerName);
  }
}
