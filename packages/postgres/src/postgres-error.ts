import { MtpxError } from '@mtpx/protocol';

const markerName = 'mtpx.error.PostgresStoreError';
const marker = Symbol.for(markerName);

/** What went wrong, for programs to branch on. */
export type PostgresStoreErrorCode =
  /** A store was given options that cannot work (no pool or connection string, a bad schema name). */
  | 'invalid_option'
  /** The tables could not be created or brought up to date. */
  | 'migration_failed';

/**
 * The error `@mtpx/postgres` raises for its own setup. Failures of a store's reads and
 * writes reach you in the error of the interface it implements: an `AgentError`
 * (`session_store_failed`, `run_journal_failed`) or an MPL `InternalError`.
 *
 * @example
 * ```ts source="./postgres.examples.ts#PostgresStoreError"
 * try {
 *   await migratePostgres({ connectionString });
 * } catch (error) {
 *   if (PostgresStoreError.isInstance(error)) console.error(error.code, error.message);
 * }
 * ```
 */
export class PostgresStoreError extends MtpxError<PostgresStoreErrorCode> {
  protected readonly [marker] = true;

  constructor(options: { code: PostgresStoreErrorCode; message: string; cause?: unknown }) {
    super(options);
    this.name = 'PostgresStoreError';
  }

  static override isInstance(error: unknown): error is PostgresStoreError {
    return MtpxError.hasMarker(error, markerName);
  }
}
