import { MtpxError } from './errors';
import { describeValue, type JsonValue, type SafeResult } from './json';

const markerName = 'mtpx.error.JsonPointerError';
const marker = Symbol.for(markerName);

/** Why a JSON Pointer could not be used. @internal */
export type JsonPointerErrorCode = 'invalid_pointer' | 'pointer_not_found';

/** A JSON Pointer (RFC 6901) that is malformed or selects nothing. @internal */
export class JsonPointerError extends MtpxError<JsonPointerErrorCode> {
  protected readonly [marker] = true;

  /** The pointer as given. */
  readonly pointer: string;

  constructor(options: { code: JsonPointerErrorCode; pointer: string; message: string }) {
    super({ code: options.code, message: options.message });
    this.name = 'JsonPointerError';
    this.pointer = options.pointer;
  }

  static override isInstance(error: unknown): error is JsonPointerError {
    return MtpxError.hasMarker(error, markerName);
  }
}

/**
 * Splits a JSON Pointer (RFC 6901) into its unescaped reference tokens.
 * `""` is the whole document; every other pointer starts with `/`; `~0` is `~` and `~1` is `/`.
 *
 * @example
 * ```ts source="./protocol.examples.ts#parseJsonPointer"
 * parseJsonPointer('/items/0/a~1b'); // { ok: true, value: ['items', '0', 'a/b'] }
 * ```
 * @internal
 */
export function parseJsonPointer(pointer: string): SafeResult<string[], JsonPointerError> {
  if (pointer === '') return { ok: true, value: [] };
  if (!pointer.startsWith('/')) {
    return invalid(pointer, 'a JSON Pointer is empty or starts with "/"');
  }
  const tokens = pointer.slice(1).split('/');
  for (const token of tokens) {
    if (/~(?![01])/.test(token)) {
      return invalid(pointer, '"~" must be followed by 0 (for "~") or 1 (for "/")');
    }
  }
  return { ok: true, value: tokens.map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~')) };
}

/**
 * Selects part of a JSON document with a JSON Pointer (RFC 6901), without throwing.
 * Array indexes are decimal without leading zeros; `-` (past the end) selects nothing.
 *
 * @example
 * ```ts source="./protocol.examples.ts#evaluateJsonPointer"
 * evaluateJsonPointer({ items: [{ id: 7 }] }, '/items/0/id'); // { ok: true, value: 7 }
 * ```
 * @internal
 */
export function evaluateJsonPointer(
  document: JsonValue,
  pointer: string,
): SafeResult<JsonValue, JsonPointerError> {
  const parsed = parseJsonPointer(pointer);
  if (!parsed.ok) return parsed;
  let current: JsonValue = document;
  let walked = '';
  for (const token of parsed.value) {
    const here = walked === '' ? 'the root' : `"${walked}"`;
    walked += `/${token.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (Array.isArray(current)) {
      if (!/^(0|[1-9][0-9]*)$/.test(token)) {
        return notFound(pointer, `"${token}" is not an array index (at ${here}, an array)`);
      }
      const index = Number(token);
      if (index >= current.length) {
        return notFound(
          pointer,
          `index ${index} is past the end of the array of ${current.length} at ${here}`,
        );
      }
      current = current[index] as JsonValue;
    } else if (current !== null && typeof current === 'object') {
      if (!Object.hasOwn(current, token)) {
        const keys = Object.keys(current);
        const known = keys.length === 0 ? 'it has no keys' : `its keys are ${listKeys(keys)}`;
        return notFound(pointer, `no key "${token}" in the object at ${here}; ${known}`);
      }
      current = current[token] as JsonValue;
    } else {
      return notFound(
        pointer,
        `cannot select "${token}" inside ${describeValue(current)} at ${here}`,
      );
    }
  }
  return { ok: true, value: current };
}

function listKeys(keys: string[]): string {
  const shown = keys.slice(0, 8).map((key) => `"${key}"`);
  return keys.length > 8 ? `${shown.join(', ')}, …` : shown.join(', ');
}

function invalid(pointer: string, reason: string): { ok: false; error: JsonPointerError } {
  return {
    ok: false,
    error: new JsonPointerError({
      code: 'invalid_pointer',
      pointer,
      message: `Invalid JSON Pointer ${JSON.stringify(pointer)}: ${reason}.`,
    }),
  };
}

function notFound(pointer: string, reason: string): { ok: false; error: JsonPointerError } {
  return {
    ok: false,
    error: new JsonPointerError({
      code: 'pointer_not_found',
      pointer,
      message: `JSON Pointer ${JSON.stringify(pointer)} selects nothing: ${reason}.`,
    }),
  };
}
