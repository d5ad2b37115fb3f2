const baseMarkerName = 'mtpx.error';
const baseMarker = Symbol.for(baseMarkerName);

/** What every {@link MtpxError} is built from. */
export interface MtpxErrorOptions<TCode extends string> {
  /** A stable, machine-readable code programs branch on. */
  code: TCode;
  /** Written for the person (or model) who must act on it. */
  message: string;
  /** The underlying error, when this one wraps another. */
  cause?: unknown;
}

/**
 * The base of every error MTPX raises. Each package extends it with its own `code` union.
 *
 * Use the static `isInstance` checks rather than `instanceof`: they rely on a
 * `Symbol.for` marker, so they hold even when two copies of a package are installed.
 *
 * @example
 * ```ts source="./protocol.examples.ts#MtpxError"
 * try {
 *   assertValidPlan(plan);
 * } catch (error) {
 *   if (PlanValidationError.isInstance(error)) console.log(error.issues);
 * }
 * ```
 */
export class MtpxError<TCode extends string = string> extends Error {
  protected readonly [baseMarker] = true;

  /** A stable, machine-readable code. */
  readonly code: TCode;

  constructor({ code, message, cause }: MtpxErrorOptions<TCode>) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'MtpxError';
    this.code = code;
  }

  /** True when `error` is an MtpxError from any copy of this package. */
  static isInstance(error: unknown): error is MtpxError {
    return MtpxError.hasMarker(error, baseMarkerName);
  }

  /**
   * True when `error` carries the `Symbol.for(markerName)` marker. Subclasses define
   * their own marker and call this from their own `isInstance`.
   */
  protected static hasMarker(error: unknown, markerName: string): boolean {
    const marker = Symbol.for(markerName);
    return (
      error != null &&
      typeof error === 'object' &&
      marker in error &&
      (error as Record<symbol, unknown>)[marker] === true
    );
  }
}
