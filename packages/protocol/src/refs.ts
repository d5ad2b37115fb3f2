import { MtpxError } from './errors';
import { describeValue, type JsonValue, type SafeResult } from './json';
import { cloneJson } from './json-bounds';
import { evaluateJsonPointer, parseJsonPointer } from './json-pointer';
import { replaceAt } from './json-rewrite';

/**
 * A reference to another call's output, written in place of any argument value.
 * `$path` (an MTPX extension) selects part of that output with a JSON Pointer (RFC 6901):
 * `{"$ref": "call_1", "$path": "/items/0/id"}`.
 */
export interface Reference {
  /** The id of the call whose output is meant. */
  $ref: string;
  /** JSON Pointer into that output; the whole output when absent. */
  $path?: string;
}

/** A reference found in arguments, with where it stands. @internal */
export interface LocatedReference extends Reference {
  /** JSON Pointer to the reference inside the arguments (`/b`, `/items/2`). */
  location: string;
  /** The same location as path segments. */
  segments: readonly (string | number)[];
}

/** An object shaped like a reference whose `$ref` or `$path` is unusable. @internal */
export interface MalformedReference {
  /** JSON Pointer to the object inside the arguments. */
  location: string;
  /** What is wrong with it, written for the model. */
  reason: string;
}

/** Every reference in a value, in document order, and the malformed ones. @internal */
export interface ReferenceScan {
  references: LocatedReference[];
  malformed: MalformedReference[];
}

/**
 * True when `value` is an object whose keys are exactly `$ref`, or `$ref` and `$path`.
 * Objects with any other key are ordinary values (a JSON Schema's `$ref`, say).
 */
function isReferenceShaped(value: unknown): value is { $ref: unknown; $path?: unknown } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  if (keys.length === 1) return keys[0] === '$ref';
  if (keys.length === 2) return keys.includes('$ref') && keys.includes('$path');
  return false;
}

/** True when `value` is a well-formed {@link Reference}. @internal */
export function isReference(value: unknown): value is Reference {
  return isReferenceShaped(value) && referenceProblem(value) === undefined;
}

function referenceProblem(value: { $ref: unknown; $path?: unknown }): string | undefined {
  if (typeof value.$ref !== 'string' || value.$ref === '') {
    return `"$ref" must be a call id (a non-empty string), got ${describeValue(value.$ref)}`;
  }
  if ('$path' in value) {
    if (typeof value.$path !== 'string') {
      return `"$path" must be a JSON Pointer string, got ${describeValue(value.$path)}`;
    }
    const pointer = parseJsonPointer(value.$path);
    if (!pointer.ok) return pointer.error.message;
  }
  return undefined;
}

const escapeToken = (token: string | number) =>
  String(token).replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * Walks a value once, in document order, and collects every reference and every
 * malformed one. Iterative, so deeply nested model output cannot overflow the stack; a
 * cycle or an object met twice is reported as malformed (so the walk always ends).
 * @internal
 */
export function scanReferences(value: unknown): ReferenceScan {
  const references: LocatedReference[] = [];
  const malformed: MalformedReference[] = [];
  // Each frame links to its parent, so a location is built only when a reference is found.
  type Frame = { value: unknown; key: string | number; parent: Frame | undefined };
  const locationOf = (frame: Frame): { location: string; segments: (string | number)[] } => {
    const segments: (string | number)[] = [];
    for (let at: Frame | undefined = frame; at?.parent !== undefined; at = at.parent) {
      segments.push(at.key);
    }
    segments.reverse();
    const location = segments.map((segment) => `/${escapeToken(segment)}`).join('');
    return { location, segments };
  };
  // A value met twice (a cycle, or one object in two places) is reported, not walked again:
  // the walk stays linear and always ends.
  const seen = new Set<object>();
  const stack: Frame[] = [{ value, key: '', parent: undefined }];
  while (stack.length > 0) {
    const frame = stack.pop() as Frame;
    const current = frame.value;
    if (typeof current !== 'object' || current === null) continue;
    if (seen.has(current)) {
      malformed.push({
        location: locationOf(frame).location,
        reason: 'the same object appears twice here (a cycle or a shared value); send plain JSON',
      });
      continue;
    }
    seen.add(current);
    if (isReferenceShaped(current)) {
      const { location, segments } = locationOf(frame);
      const problem = referenceProblem(current);
      if (problem === undefined) {
        const reference: LocatedReference = { $ref: current.$ref as string, location, segments };
        if (typeof current.$path === 'string') reference.$path = current.$path;
        references.push(reference);
      } else {
        malformed.push({ location, reason: problem });
      }
      continue;
    }
    if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index--) {
        stack.push({ value: current[index], key: index, parent: frame });
      }
    } else {
      const keys = Object.keys(current);
      for (let index = keys.length - 1; index >= 0; index--) {
        const key = keys[index] as string;
        stack.push({ value: (current as Record<string, unknown>)[key], key, parent: frame });
      }
    }
  }
  return { references, malformed };
}

/**
 * The target ids of every `{"$ref": id}` anywhere in nested arguments, in document order
 * (repeats included). Malformed references are left out; `scanReferences` reports them.
 *
 * @example
 * ```ts source="./protocol.examples.ts#findRefs"
 * findRefs({ a: { $ref: 'call_1' }, list: [{ $ref: 'call_2', $path: '/id' }] }); // ['call_1', 'call_2']
 * ```
 */
export function findRefs(value: unknown): string[] {
  return scanReferences(value).references.map((reference) => reference.$ref);
}

const markerName = 'mtpx.error.RefResolutionError';
const marker = Symbol.for(markerName);

/** Why a reference could not be replaced by a value. */
export type RefResolutionErrorCode =
  | 'unknown_reference'
  | 'invalid_reference'
  | 'pointer_not_found';

/** A reference that names no known call, is malformed, or whose `$path` selects nothing. */
export class RefResolutionError extends MtpxError<RefResolutionErrorCode> {
  protected readonly [marker] = true;

  /** JSON Pointer to the reference inside the arguments. */
  readonly location: string;
  /** The referenced call, when the reference names one. */
  readonly callId: string | undefined;

  constructor(options: {
    code: RefResolutionErrorCode;
    message: string;
    location: string;
    callId?: string;
    cause?: unknown;
  }) {
    super(options);
    this.name = 'RefResolutionError';
    this.location = options.location;
    this.callId = options.callId;
  }

  static override isInstance(error: unknown): error is RefResolutionError {
    return MtpxError.hasMarker(error, markerName);
  }
}

/**
 * Returns a copy of `value` with every reference replaced by the output it names
 * (narrowed by `$path`). `lookup` returns a call's output, or `undefined` for an unknown id.
 * The input is never modified; nothing throws.
 *
 * @example
 * ```ts source="./protocol.examples.ts#resolveReferences"
 * const outputs = new Map<string, JsonValue>([['call_1', 12]]);
 * resolveReferences({ a: 4, b: { $ref: 'call_1' } }, (id) => outputs.get(id));
 * // { ok: true, value: { a: 4, b: 12 } }
 * ```
 */
export function resolveReferences(
  value: JsonValue,
  lookup: (callId: string) => JsonValue | undefined,
): SafeResult<JsonValue, RefResolutionError> {
  const { references, malformed } = scanReferences(value);
  const firstMalformed = malformed[0];
  if (firstMalformed !== undefined) {
    return {
      ok: false,
      error: new RefResolutionError({
        code: 'invalid_reference',
        location: firstMalformed.location,
        message: `Invalid reference at ${locationText(firstMalformed.location)}: ${firstMalformed.reason}.`,
      }),
    };
  }
  if (references.length === 0) return { ok: true, value };

  const resolved: JsonValue[] = [];
  for (const reference of references) {
    const output = lookup(reference.$ref);
    if (output === undefined) {
      return {
        ok: false,
        error: new RefResolutionError({
          code: 'unknown_reference',
          location: reference.location,
          callId: reference.$ref,
          message: `The reference at ${locationText(reference.location)} names "${reference.$ref}", but no call with that id has an output in this response or an earlier round.`,
        }),
      };
    }
    if (reference.$path === undefined) {
      resolved.push(output);
      continue;
    }
    const selected = evaluateJsonPointer(output, reference.$path);
    if (!selected.ok) {
      return {
        ok: false,
        error: new RefResolutionError({
          code: 'pointer_not_found',
          location: reference.location,
          callId: reference.$ref,
          message: `The reference at ${locationText(reference.location)} to the output of "${reference.$ref}": ${selected.error.message}`,
          cause: selected.error,
        }),
      };
    }
    resolved.push(selected.value);
  }

  // References never nest inside references, so each one is replaced at its own location.
  // Only the containers on the way to a reference are copied (arguments without references
  // are passed on as they are, too); outputs are copied so no call can change another's input.
  return {
    ok: true,
    value: replaceAt(
      value,
      references.map((reference, index) => ({
        segments: reference.segments,
        value: copyOutput(resolved[index] as JsonValue),
      })),
    ),
  };
}

/** Outputs are copied without recursion: a deep output cannot overflow the resolver. */
function copyOutput(output: JsonValue): JsonValue {
  return cloneJson(output);
}

function locationText(location: string): string {
  return location === '' ? 'the top level' : `"${location}"`;
}
