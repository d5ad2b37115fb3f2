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
  | 'closed';

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

  static override isInstance(error: unknown): error is RemoteToolError {
    return MtpxError.hasMarker(error, markerName);
  }
}
