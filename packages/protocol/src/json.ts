import { MtpxError } from './errors';

/** Any value JSON can carry. */
export type JsonValue =
  | null
  | boolean
  | number
  | string
  | JsonValue[]
  | { [key: string]: JsonValue };

/** A JSON object. */
export type JsonObject = { [key: string]: JsonValue };

/** The result of an operation on untrusted input: a value, or an error saying what was wrong. */
export type SafeResult<TValue, TError extends Error = MtpxError> =
  | { ok: true; value: TValue }
  | { ok: false; error: TError };

const invalidJsonMarkerName = 'mtpx.error.InvalidJsonError';
const invalidJsonMarker = Symbol.for(invalidJsonMarkerName);

/** Text that is not valid JSON. `text` keeps the input so nothing is lost. */
export class InvalidJsonError extends MtpxError<'invalid_json'> {
  protected readonly [invalidJsonMarker] = true;

  /** The text that failed to parse, unchanged. */
  readonly text: string;

  constructor({ text, cause }: { text: string; cause?: unknown }) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super({ code: 'invalid_json', message: `Invalid JSON: ${reason}`, cause });
    this.name = 'InvalidJsonError';
    this.text = text;
  }

  static override isInstance(error: unknown): error is InvalidJsonError {
    return MtpxError.hasMarker(error, invalidJsonMarkerName);
  }
}

/**
 * Parses untrusted JSON text without throwing.
 *
 * @example
 * ```ts source="./protocol.examples.ts#safeParseJson"
 * const parsed = safeParseJson('{"a":1');
 * if (!parsed.ok) console.log(parsed.error.message); // Invalid JSON: ...
 * ```
 */
export function safeParseJson(text: string): SafeResult<JsonValue, InvalidJsonError> {
  try {
    return { ok: true, value: JSON.parse(text) as JsonValue };
  } catch (cause) {
    return { ok: false, error: new InvalidJsonError({ text, cause }) };
  }
}

/** True for plain JSON objects (not arrays, not null). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A short, readable rendering of a value for error messages: `"15"`, `12`, `{…}`, `[…]`. @internal */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  if (Array.isArray(value)) return `array of ${value.length}`;
  if (typeof value === 'object') return 'object';
  if (typeof value === 'string') {
    const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
    return `string ${JSON.stringify(shown)}`;
  }
  return `${typeof value} ${String(value)}`;
}
