import { MtpxError } from '@mtpx/protocol';

/** What can go wrong around remote tools (never a model's mistake: those become results). */
export type RemoteToolErrorCode =
  /** An option of `createRemoteTools` or `startToolWorker` is out of range. */
  | 'invalid_option'
  /** A job's data or a worker's answer is not in the shape this package writes. */
  | 'invalid_job'
  /** A job failed outside the tool (the worker lost it too often, or threw before the tool ran). */
  | 'job_failed'
  /** The remote tools or the worker were closed. */
  | 'closed'
  /**
   * The call's job no longer exists in Redis (a Redis without persistence restarted, or
   * the data was flushed) while the call waited: it may or may not have run. Retryable.
   */
  | 'job_lost'
  /** The call did not answer within its deadline (`callDeadlineMs`); its job was cancelled. Retryable. */
  | 'deadline_exceeded'
  /** Redis refused or could not take the call's job (it was never enqueued, so it did not run). Retryable. */
  | 'redis_unavailable';

const markerName = 'mtpx.error.RemoteToolError';
const marker = Symbol.for(markerName);

/**
 * An infrastructure failure of remote execution: a bad option, a job in a foreign shape, a
 * job lost by its workers. A tool's own failure is not one of these: it travels back and
 * becomes the call's error result, as in-process.
 */
export class RemoteToolError extends MtpxError<RemoteToolErrorCode> {
  protected readonly [marker] = true;

  constructor(options: { code: RemoteToolErrorCode; message: string; cause?: unknown }) {
    super(options);
    this.name = 'RemoteToolError';
  }

  /**
   * True when dispatching the same call again may succeed (`job_lost`,
   * `deadline_exceeded`, `redis_unavailable`): the call keeps its idempotency key, so a tool that honours it
   * applies its effect once however often it runs.
   */
  get isRetryable(): boolean {
    return (
      this.code === 'job_lost' ||
      this.code === 'deadline_exceeded' ||
      this.code === 'redis_unavailable'
    );
  }

  static override isInstance(error: unknown): error is RemoteToolError {
    return MtpxError.hasMarker(error, markerName);
  }
}
