import { MtpxError } from '@mtpx/protocol';

/**
 * The error codes of MPL. The first ten are the reference MPL codes, spelled as the
 * reference proxy writes them; the rest are MTPX additions for what the reference leaves
 * to its HTTP layer (bad requests, size limits, authentication, routing, upstreams).
 */
export type MplErrorCode =
  /** A QoM metric fell below the profile's threshold. */
  | 'E-QOM-BREACH'
  /** The payload does not conform to its SType's JSON Schema. */
  | 'E-SCHEMA-FIDELITY'
  /** A message's `args` do not conform to the SType named by its `args_stype`. */
  | 'E-TOOL-ARG-COERCION'
  /** A policy refused the request. */
  | 'E-POLICY-DENIED'
  /** The SType is not in the registry, or its id is malformed. */
  | 'E-UNKNOWN-STYPE'
  /** The tool is not known. */
  | 'E-UNKNOWN-TOOL'
  /** The handshake found nothing in common. */
  | 'E-NEGOTIATION-INCOMPATIBLE'
  /** A tool's outcome could not be verified. */
  | 'E-TOOL-OUTCOME-INCORRECT'
  /** A declared semantic hash does not match the payload. */
  | 'E-SEMANTIC-HASH-MISMATCH'
  /** Something failed inside MPL itself. */
  | 'E-INTERNAL'
  /** MTPX: the request is malformed (not JSON, missing fields, conflicting headers). */
  | 'E-INVALID-REQUEST'
  /** MTPX: the request body is larger than the server accepts. */
  | 'E-PAYLOAD-TOO-LARGE'
  /** MTPX: a bearer token is required and was missing or wrong. */
  | 'E-UNAUTHORIZED'
  /** MTPX: no such route, SType or plan. */
  | 'E-NOT-FOUND'
  /** MTPX: the upstream service failed or could not be reached. */
  | 'E-UPSTREAM'
  /** MTPX: the client could not reach the proxy, or the proxy answered with something that is not MPL. */
  | 'E-CONNECTION'
  /** MTPX: a registry folder or profile file could not be loaded. */
  | 'E-REGISTRY'
  /** MTPX: an `error`-severity assertion of the SType failed (strict mode blocks it). */
  | 'E-ASSERTION-FAILED';

/** One problem, located by a JSON Pointer into the message. */
export interface ErrorDetail {
  /** JSON Pointer (RFC 6901) into the message; `""` is the whole payload. */
  path: string;
  /** What is wrong at `path`. */
  message: string;
  /** Which validation layer failed: the message itself, or its `args` checked against `args_stype`. */
  layer?: 'payload' | 'args';
  /** The SType whose schema reported the problem. */
  stype?: string;
}

/** The error body every MPL endpoint answers with, as the reference proxy writes it. */
export interface MplErrorBody {
  error: MplErrorCode;
  message: string;
  details: ErrorDetail[];
}

/** What every {@link MplError} is built from. */
export interface MplErrorOptions<TCode extends MplErrorCode = MplErrorCode> {
  code: TCode;
  message: string;
  details?: ErrorDetail[];
  /** The HTTP status that carried it, when it came over the wire. */
  status?: number;
  cause?: unknown;
}

const markerName = 'mtpx.error.MplError';
const marker = Symbol.for(markerName);

/**
 * The base of every MPL error: a reference `E-…` code, a message, and `details` locating
 * each problem by JSON Pointer. `toJSON()` gives the reference wire shape.
 *
 * @example
 * ```ts source="./engine.examples.ts#SchemaFidelityError"
 * try {
 *   await client.call('agent.plan', {
 *     payload,
 *     headers: { 'X-MPL-SType': 'org.agent.TaskPlan.v1' },
 *   });
 * } catch (error) {
 *   if (SchemaFidelityError.isInstance(error)) console.log(error.details);
 * }
 * ```
 */
export class MplError<TCode extends MplErrorCode = MplErrorCode> extends MtpxError<TCode> {
  protected readonly [marker] = true;

  /** Each problem found, located by JSON Pointer (may be empty). */
  readonly details: ErrorDetail[];
  /** The HTTP status that carried the error, when it came over the wire. */
  readonly status: number | undefined;

  constructor({ code, message, details = [], status, cause }: MplErrorOptions<TCode>) {
    super({ code, message, cause });
    this.name = 'MplError';
    this.details = details;
    this.status = status;
  }

  /** The reference wire shape: `{ error, message, details }`. */
  toJSON(): MplErrorBody {
    return { error: this.code, message: this.message, details: this.details };
  }

  static override isInstance(error: unknown): error is MplError {
    return MtpxError.hasMarker(error, markerName);
  }
}

/** The options of a typed MPL error: everything but the code, which the class fixes. */
export type MplErrorClassOptions = Omit<MplErrorOptions, 'code'>;

function hasCode(error: unknown, code: MplErrorCode): boolean {
  return MplError.isInstance(error) && error.code === code;
}

/** `E-QOM-BREACH`: a QoM metric fell below the profile's threshold (`details` name each failing metric). */
export class QomBreachError extends MplError<'E-QOM-BREACH'> {
  constructor(options: MplErrorClassOptions) {
    super({ ...options, code: 'E-QOM-BREACH' });
    this.name = 'QomBreachError';
  }

  static override isInstance(error: unknown): error is QomBreachError {
    return hasCode(error, 'E-QOM-BREACH');
  }
}

/** `E-SCHEMA-FIDELITY`: the payload does not conform to its SType's schema. */
export class SchemaFidelityError extends MplError<'E-SCHEMA-FIDELITY'> {
  constructor(options: MplErrorClassOptions) {
    super({ ...options, code: 'E-SCHEMA-FIDELITY' });
    this.name = 'SchemaFidelityError';
  }

  static override isInstance(error: unknown): error is SchemaFidelityError {
    return hasCode(error, 'E-SCHEMA-FIDELITY');
  }
}

/** `E-TOOL-ARG-COERCION`: `args` do not conform to the SType named by `args_stype`. */
export class ToolArgCoercionError extends MplError<'E-TOOL-ARG-COERCION'> {
  constructor(options: MplErrorClassOptions) {
    super({ ...options, code: 'E-TOOL-ARG-COERCION' });
    this.name = 'ToolArgCoercionError';
  }

  static override isInstance(error: unknown): error is ToolArgCoercionError {
    return hasCode(error, 'E-TOOL-ARG-COERCION');
  }
}

/** `E-POLICY-DENIED`: a policy refused the request. */
export class PolicyDeniedError extends MplError<'E-POLICY-DENIED'> {
  constructor(options: MplErrorClassOptions) {
    super({ ...options, code: 'E-POLICY-DENIED' });
    this.name = 'PolicyDeniedError';
  }

  static override isInstance(error: unknown): error is PolicyDeniedError {
    return hasCode(error, 'E-POLICY-DENIED');
  }
}

/** `E-UNKNOWN-STYPE`: the SType is not registered, or its id is malformed. */
export class UnknownStypeError extends MplError<'E-UNKNOWN-STYPE'> {
  constructor(options: MplErrorClassOptions) {
    super({ ...options, code: 'E-UNKNOWN-STYPE' });
    this.name = 'UnknownStypeError';
  }

  static override isInstance(error: unknown): error is UnknownStypeError {
    return hasCode(error, 'E-UNKNOWN-STYPE');
  }
}

/** `E-UNKNOWN-TOOL`: the tool is not known. */
export class UnknownToolError extends MplError<'E-UNKNOWN-TOOL'> {
  constructor(options: MplErrorClassOptions) {
    super({ ...options, code: 'E-UNKNOWN-TOOL' });
    this.name = 'UnknownToolError';
  }

  static override isInstance(error: unknown): error is UnknownToolError {
    return hasCode(error, 'E-UNKNOWN-TOOL');
  }
}

/** `E-NEGOTIATION-INCOMPATIBLE`: the handshake found no common ground. */
export class NegotiationIncompatibleError extends MplError<'E-NEGOTIATION-INCOMPATIBLE'> {
  constructor(options: MplErrorClassOptions) {
    super({ ...options, code: 'E-NEGOTIATION-INCOMPATIBLE' });
    this.name = 'NegotiationIncompatibleError';
  }

  static override isInstance(error: unknown): error is NegotiationIncompatibleError {
    return hasCode(error, 'E-NEGOTIATION-INCOMPATIBLE');
  }
}

/** `E-TOOL-OUTCOME-INCORRECT`: a tool's outcome could not be verified. */
export class ToolOutcomeIncorrectError extends MplError<'E-TOOL-OUTCOME-INCORRECT'> {
  constructor(options: MplErrorClassOptions) {
    super({ ...options, code: 'E-TOOL-OUTCOME-INCORRECT' });
    this.name = 'ToolOutcomeIncorrectError';
  }

  static override isInstance(error: unknown): error is ToolOutcomeIncorrectError {
    return hasCode(error, 'E-TOOL-OUTCOME-INCORRECT');
  }
}

/** `E-SEMANTIC-HASH-MISMATCH`: a declared `sem_hash` does not match the payload. */
export class SemanticHashMismatchError extends MplError<'E-SEMANTIC-HASH-MISMATCH'> {
  constructor(options: MplErrorClassOptions) {
    super({ ...options, code: 'E-SEMANTIC-HASH-MISMATCH' });
    this.name = 'SemanticHashMismatchError';
  }

  static override isInstance(error: unknown): error is SemanticHashMismatchError {
    return hasCode(error, 'E-SEMANTIC-HASH-MISMATCH');
  }
}

/** `E-INTERNAL`: something failed inside MPL itself. */
export class InternalError extends MplError<'E-INTERNAL'> {
  constructor(options: MplErrorClassOptions) {
    super({ ...options, code: 'E-INTERNAL' });
    this.name = 'InternalError';
  }

  static override isInstance(error: unknown): error is InternalError {
    return hasCode(error, 'E-INTERNAL');
  }
}

/** `E-INVALID-REQUEST`: the request is malformed (not JSON, missing fields, conflicting headers). */
export class InvalidRequestError extends MplError<'E-INVALID-REQUEST'> {
  constructor(options: MplErrorClassOptions) {
    super({ ...options, code: 'E-INVALID-REQUEST' });
    this.name = 'InvalidRequestError';
  }

  static override isInstance(error: unknown): error is InvalidRequestError {
    return hasCode(error, 'E-INVALID-REQUEST');
  }
}

/** `E-PAYLOAD-TOO-LARGE`: the body is larger than the server accepts. */
export class PayloadTooLargeError extends MplError<'E-PAYLOAD-TOO-LARGE'> {
  constructor(options: MplErrorClassOptions) {
    super({ ...options, code: 'E-PAYLOAD-TOO-LARGE' });
    this.name = 'PayloadTooLargeError';
  }

  static override isInstance(error: unknown): error is PayloadTooLargeError {
    return hasCode(error, 'E-PAYLOAD-TOO-LARGE');
  }
}

/** `E-UNAUTHORIZED`: a bearer token was required and was missing or wrong. */
export class UnauthorizedError extends MplError<'E-UNAUTHORIZED'> {
  constructor(options: MplErrorClassOptions) {
    super({ ...options, code: 'E-UNAUTHORIZED' });
    this.name = 'UnauthorizedError';
  }

  static override isInstance(error: unknown): error is UnauthorizedError {
    return hasCode(error, 'E-UNAUTHORIZED');
  }
}

/** `E-NOT-FOUND`: no such route, SType or plan. */
export class NotFoundError extends MplError<'E-NOT-FOUND'> {
  constructor(options: MplErrorClassOptions) {
    super({ ...options, code: 'E-NOT-FOUND' });
    this.name = 'NotFoundError';
  }

  static override isInstance(error: unknown): error is NotFoundError {
    return hasCode(error, 'E-NOT-FOUND');
  }
}

/** `E-UPSTREAM`: the upstream service failed or could not be reached. */
export class UpstreamError extends MplError<'E-UPSTREAM'> {
  constructor(options: MplErrorClassOptions) {
    super({ ...options, code: 'E-UPSTREAM' });
    this.name = 'UpstreamError';
  }

  static override isInstance(error: unknown): error is UpstreamError {
    return hasCode(error, 'E-UPSTREAM');
  }
}

/** `E-CONNECTION`: the proxy could not be reached, or did not answer in MPL's shape. */
export class ConnectionError extends MplError<'E-CONNECTION'> {
  constructor(options: MplErrorClassOptions) {
    super({ ...options, code: 'E-CONNECTION' });
    this.name = 'ConnectionError';
  }

  static override isInstance(error: unknown): error is ConnectionError {
    return hasCode(error, 'E-CONNECTION');
  }
}

/** `E-REGISTRY`: a registry folder, schema, assertion or profile file could not be loaded. */
export class RegistryError extends MplError<'E-REGISTRY'> {
  constructor(options: MplErrorClassOptions) {
    super({ ...options, code: 'E-REGISTRY' });
    this.name = 'RegistryError';
  }

  static override isInstance(error: unknown): error is RegistryError {
    return hasCode(error, 'E-REGISTRY');
  }
}

/** `E-ASSERTION-FAILED`: an `error`-severity assertion failed; `details` name each by id. */
export class AssertionFailedError extends MplError<'E-ASSERTION-FAILED'> {
  constructor(options: MplErrorClassOptions) {
    super({ ...options, code: 'E-ASSERTION-FAILED' });
    this.name = 'AssertionFailedError';
  }

  static override isInstance(error: unknown): error is AssertionFailedError {
    return hasCode(error, 'E-ASSERTION-FAILED');
  }
}

const errorClasses = {
  'E-QOM-BREACH': QomBreachError,
  'E-SCHEMA-FIDELITY': SchemaFidelityError,
  'E-TOOL-ARG-COERCION': ToolArgCoercionError,
  'E-POLICY-DENIED': PolicyDeniedError,
  'E-UNKNOWN-STYPE': UnknownStypeError,
  'E-UNKNOWN-TOOL': UnknownToolError,
  'E-NEGOTIATION-INCOMPATIBLE': NegotiationIncompatibleError,
  'E-TOOL-OUTCOME-INCORRECT': ToolOutcomeIncorrectError,
  'E-SEMANTIC-HASH-MISMATCH': SemanticHashMismatchError,
  'E-INTERNAL': InternalError,
  'E-INVALID-REQUEST': InvalidRequestError,
  'E-PAYLOAD-TOO-LARGE': PayloadTooLargeError,
  'E-UNAUTHORIZED': UnauthorizedError,
  'E-NOT-FOUND': NotFoundError,
  'E-UPSTREAM': UpstreamError,
  'E-CONNECTION': ConnectionError,
  'E-REGISTRY': RegistryError,
  'E-ASSERTION-FAILED': AssertionFailedError,
} satisfies { [TCode in MplErrorCode]: new (options: MplErrorClassOptions) => MplError<TCode> };

/** Every MPL error code, in the order above. */
export const MPL_ERROR_CODES = Object.keys(errorClasses) as MplErrorCode[];

/** True when `code` is one of the {@link MplErrorCode}s. @internal */
export function isMplErrorCode(code: unknown): code is MplErrorCode {
  return typeof code === 'string' && Object.hasOwn(errorClasses, code);
}

/**
 * The typed error for `code`: `createMplError('E-SCHEMA-FIDELITY', …)` is a
 * {@link SchemaFidelityError}. Unknown codes from a newer peer become `E-INTERNAL`.
 *
 * @internal
 */
export function createMplError(code: string, options: MplErrorClassOptions): MplError {
  const errorClass: new (options: MplErrorClassOptions) => MplError = isMplErrorCode(code)
    ? errorClasses[code]
    : InternalError;
  return new errorClass(options);
}
