import { MtpxError } from '@mtpx/protocol';

const markerName = 'mtpx.error.InspectorError';
const marker = Symbol.for(markerName);

/** What went wrong, for programs to branch on. */
export type InspectorErrorCode =
  /** `recordRuns`, `serve` or the CLI got an option that cannot work. */
  | 'invalid_option'
  /** A run record could not be written (the folder is missing or not writable). */
  | 'record_write_failed'
  /** The run asked for is not in the data folder. */
  | 'run_not_found'
  /** The server could not listen (the port is taken, the host cannot be bound). */
  | 'listen_failed';

/**
 * The error the inspector raises for the caller's mistakes and for a data folder it
 * cannot use. A recorder never throws into a run: its write failures are kept and
 * reported by `flush()` / `close()`.
 *
 * @example
 * ```ts source="./inspector.examples.ts#InspectorError"
 * try {
 *   await readRun('./runs', 'run_1');
 * } catch (error) {
 *   if (InspectorError.isInstance(error) && error.code === 'run_not_found') showList();
 * }
 * ```
 */
export class InspectorError extends MtpxError<InspectorErrorCode> {
  protected readonly [marker] = true;

  constructor(options: { code: InspectorErrorCode; message: string; cause?: unknown }) {
    super(options);
    this.name = 'InspectorError';
  }

  static override isInstance(error: unknown): error is InspectorError {
    return MtpxError.hasMarker(error, markerName);
  }
}
