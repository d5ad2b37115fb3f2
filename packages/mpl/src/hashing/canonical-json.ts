import { InvalidRequestError } from '../errors';
import { keyOrderOf } from './canonical-keys';
import { canonicalNumber } from './canonical-number';
import { compareCodePoints, quote, trimmed } from './canonical-text';

export { canonicalNumber, compareCodePoints };

/**
 * How deep a payload may nest before canonicalization refuses it (a guard against stack exhaustion).
 *
 * @internal
 */
export const MAX_CANONICAL_DEPTH = 512;

/**
 * `text` without leading and trailing Unicode White_Space, as Rust's `str::trim` gives it.
 *
 * @internal
 */
export function trimUnicodeWhiteSpace(text: string): string {
  return trimmed(text);
}

// The keys and indexes from the root to the value being written: a path is built from
// them only when a value is refused, so the common case pays nothing for it.
type PathStack = Array<string | number>;

function pathOf(stack: PathStack): string {
  return stack.map((part) => `/${escapePointer(String(part))}`).join('');
}

function notJson(stack: PathStack, what: string): never {
  const path = pathOf(stack);
  throw new InvalidRequestError({
    message: `Cannot canonicalize: the value at ${JSON.stringify(path)} is ${what}, which JSON cannot carry.`,
    details: [{ path, message: `${what} is not a JSON value` }],
  });
}

function tooDeep(stack: PathStack): never {
  const path = pathOf(stack);
  throw new InvalidRequestError({
    message: `Cannot canonicalize: the value nests deeper than ${MAX_CANONICAL_DEPTH} levels.`,
    details: [{ path, message: `nesting deeper than ${MAX_CANONICAL_DEPTH} levels` }],
  });
}

/** A string in canonical form: trimmed as Rust trims, then quoted as JSON. */
export function canonicalString(text: string): string {
  return quote(trimmed(text));
}

// Thrown (never allocated per call) by the writer when a value cannot be written:
// `canonicalize` then walks the value again with a path to say where and what.
const refused: unique symbol = Symbol('refused');

/** The canonical form of `value` (at `depth` levels below the root), in one recursive pass. */
function write(value: unknown, depth: number): string {
  switch (typeof value) {
    case 'string':
      return quote(trimmed(value));
    case 'number':
      if (Number.isSafeInteger(value)) return value === 0 ? '0' : `${value}`;
      if (!Number.isFinite(value)) throw refused;
      return canonicalNumber(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (value === null) return 'null';
      if (depth >= MAX_CANONICAL_DEPTH) throw refused;
      if (Array.isArray(value)) return writeArray(value, depth + 1);
      return writeObject(value as Record<string, unknown>, depth + 1);
    }
    default:
      throw refused;
  }
}

function writeArray(value: readonly unknown[], depth: number): string {
  const length = value.length;
  if (length === 0) return '[]';
  let out = '[';
  for (let index = 0; index < length; index++) {
    if (index > 0) out += ',';
    const item: unknown = value[index];
    out += item === undefined ? 'null' : write(item, depth);
  }
  return `${out}]`;
}

function writeObject(record: Record<string, unknown>, depth: number): string {
  const keys = Object.keys(record);
  if (keys.length === 0) return '{}';
  const { order, quoted, separated } = keyOrderOf(keys);
  let out = '{';
  let first = true;
  for (let index = 0; index < order.length; index++) {
    const member = record[order[index] as string];
    if (member === null || member === undefined) continue;
    out += first ? quoted[index] : separated[index];
    first = false;
    out += write(member, depth);
  }
  return `${out}}`;
}

/**
 * Walks `value` in the order `write` does, with the path to where it is, and throws
 * the error for the first value it cannot write (what `write` refused, now explained).
 */
function explainRefusal(value: unknown, stack: PathStack): void {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return;
    case 'number':
      if (!Number.isFinite(value)) notJson(stack, String(value));
      return;
    case 'object': {
      if (value === null) return;
      if (stack.length >= MAX_CANONICAL_DEPTH) tooDeep(stack);
      if (Array.isArray(value)) {
        for (let index = 0; index < value.length; index++) {
          const item: unknown = value[index];
          if (item === undefined) continue;
          stack.push(index);
          explainRefusal(item, stack);
          stack.pop();
        }
        return;
      }
      const record = value as Record<string, unknown>;
      for (const key of keyOrderOf(Object.keys(record)).order) {
        const member = record[key];
        if (member === null || member === undefined) continue;
        stack.push(key);
        explainRefusal(member, stack);
        stack.pop();
      }
      return;
    }
    default:
      notJson(stack, typeof value);
  }
}

function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * The MPL canonical form of a JSON value, byte for byte as the reference implementation
 * writes it: object keys sorted by code point at every level, members whose value is
 * `null` dropped (array items kept), whole numbers as integers and other numbers rounded
 * to 6 decimals, strings trimmed of Unicode white space, no insignificant white space.
 *
 * Throws {@link InvalidRequestError} for values JSON cannot carry (`NaN`, functions, …) and
 * for payloads nested deeper than `MAX_CANONICAL_DEPTH` (512) levels.
 *
 * @example
 * ```ts source="./hashing.examples.ts#canonicalize"
 * canonicalize({ z: 1, a: 2, m: null }); // '{"a":2,"z":1}'
 * ```
 */
export function canonicalize(value: unknown): string {
  try {
    return write(value, 0);
  } catch (error) {
    if (error !== refused) throw error;
    explainRefusal(value, []);
    // A value that changed between the two walks (a getter): refused, without a path.
    return notJson([], 'not writable');
  }
}
