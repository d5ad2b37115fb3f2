import { InvalidRequestError } from '../errors';

/**
 * How deep a payload may nest before canonicalization refuses it (a guard against stack exhaustion).
 *
 * @internal
 */
export const MAX_CANONICAL_DEPTH = 512;

// Rust's `str::trim` removes Unicode White_Space: unlike String.prototype.trim it keeps
// U+FEFF and removes U+0085. The reference hashes what Rust produces, so we trim the same set.

/**
 * `text` without leading and trailing Unicode White_Space, as Rust's `str::trim` gives it.
 *
 * @internal
 */
export function trimUnicodeWhiteSpace(text: string): string {
  return trimmed(text);
}

/**
 * Orders strings by Unicode code point, which is the byte order of their UTF-8 encoding
 * (how the reference sorts keys). Plain `<` compares UTF-16 units and puts U+E000–U+FFFF
 * after characters outside the Basic Multilingual Plane.
 *
 * @internal
 */
export function compareCodePoints(left: string, right: string): number {
  const length = Math.min(left.length, right.length);
  for (let index = 0; index < length; index++) {
    const a = left.charCodeAt(index);
    const b = right.charCodeAt(index);
    if (a !== b) {
      if (a >= 0xd800 && b >= 0xd800) return shiftSurrogates(a) - shiftSurrogates(b);
      return a - b;
    }
  }
  return left.length - right.length;
}

function shiftSurrogates(unit: number): number {
  if (unit <= 0xdfff) return unit + 0x2000;
  return unit - 0x800;
}

const twoToThe53 = 2 ** 53;
const twoToThe63 = 2 ** 63;

function roundHalfAwayFromZero(value: number): number {
  return value < 0 ? -Math.round(-value) : Math.round(value);
}

/**
 * A float as Rust's `ryu` (and so `serde_json`) writes it: shortest round-trip digits,
 * always with a fraction or an exponent (`2.0`, `0.000123`, `1e-7`, `1.5e20`).
 */
function formatFloat(value: number): string {
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0';
  const sign = value < 0 ? '-' : '';
  const [mantissa = '', exponentText = '0'] = Math.abs(value).toExponential().split('e');
  const digits = mantissa.replace('.', '');
  const length = digits.length;
  const pointPosition = Number(exponentText) + 1;
  const lastDigitExponent = pointPosition - length;
  if (lastDigitExponent >= 0 && pointPosition <= 16)
    return `${sign}${digits}${'0'.repeat(lastDigitExponent)}.0`;
  if (pointPosition > 0 && pointPosition <= 16)
    return `${sign}${digits.slice(0, pointPosition)}.${digits.slice(pointPosition)}`;
  if (pointPosition > -5 && pointPosition <= 0)
    return `${sign}0.${'0'.repeat(-pointPosition)}${digits}`;
  if (length === 1) return `${sign}${digits}e${pointPosition - 1}`;
  return `${sign}${digits[0]}.${digits.slice(1)}e${pointPosition - 1}`;
}

/**
 * A number in MPL canonical form: whole values as integers, others rounded to 6 decimals
 * (half away from zero), written exactly as the reference implementation writes them.
 *
 * @internal
 */
export function canonicalNumber(value: number): string {
  if (Number.isInteger(value) && Math.abs(value) < twoToThe63) {
    if (value === 0) return '0';
    // Beyond 2^53 String() writes the shortest round-trip digits; Rust writes the exact integer.
    return Math.abs(value) < twoToThe53 ? String(value) : BigInt(value).toString();
  }
  let rounded = roundHalfAwayFromZero(value * 1_000_000) / 1_000_000;
  if (!Number.isFinite(rounded)) rounded = value;
  return formatFloat(rounded);
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

/** True for the characters Rust's `str::trim` removes (Unicode White_Space). */
function isWhiteSpace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0x85) return false;
  return (
    code === 0x85 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000
  );
}

function trimmed(text: string): string {
  const length = text.length;
  if (length === 0) return text;
  // Most strings start and end with a visible character: no scan, no copy.
  if (!isWhiteSpace(text.charCodeAt(0)) && !isWhiteSpace(text.charCodeAt(length - 1))) return text;
  let start = 0;
  let end = length;
  while (start < end && isWhiteSpace(text.charCodeAt(start))) start++;
  while (end > start && isWhiteSpace(text.charCodeAt(end - 1))) end--;
  return text.slice(start, end);
}

// What JSON.stringify would escape: quotes, backslashes, control characters, surrogates.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it looks for.
const needsEscape = /["\\\u0000-\u001f\ud800-\udfff]/;

/** A JSON string literal, as `JSON.stringify` writes it (without calling it when plain). */
function quote(text: string): string {
  return needsEscape.test(text) ? JSON.stringify(text) : `"${text}"`;
}

// Payloads of one SType repeat the same keys: their quoted form (and whether they hold
// a UTF-16 unit from U+D800 up, which sorts differently by code point than by unit) is
// kept, bounded.
const quotedKeys = new Map<string, string>();
const highKeys = new Set<string>();
const maxQuotedKeys = 4096;
const highUnits = /[\ud800-\uffff]/;

function quotedKey(key: string): string {
  let quoted = quotedKeys.get(key);
  if (quoted === undefined) {
    quoted = `${quote(key)}:`;
    if (quotedKeys.size < maxQuotedKeys) {
      quotedKeys.set(key, quoted);
      if (highUnits.test(key)) highKeys.add(key);
    }
  }
  return quoted;
}

function sortedKeys(record: Record<string, unknown>): string[] {
  const keys = Object.keys(record);
  if (keys.length < 2) return keys;
  let high = false;
  for (const key of keys) {
    if (!quotedKeys.has(key)) quotedKey(key);
    if (highKeys.has(key) || (!quotedKeys.has(key) && highUnits.test(key))) high = true;
  }
  if (high) return keys.sort(compareCodePoints);
  if (keys.length > 24) return keys.sort();
  // Insertion sort: for the few keys of a typical object, several times faster than sort().
  for (let index = 1; index < keys.length; index++) {
    const key = keys[index] as string;
    let at = index - 1;
    while (at >= 0 && (keys[at] as string) > key) {
      keys[at + 1] = keys[at] as string;
      at--;
    }
    keys[at + 1] = key;
  }
  return keys;
}

/** A string in canonical form: trimmed as Rust trims, then quoted as JSON. */
export function canonicalString(text: string): string {
  return quote(trimmed(text));
}

/** The canonical form of `value`, written in one recursive pass. */
function write(value: unknown, stack: PathStack): string {
  switch (typeof value) {
    case 'string':
      return quote(trimmed(value));
    case 'number':
      if (Number.isSafeInteger(value)) return value === 0 ? '0' : `${value}`;
      if (!Number.isFinite(value)) notJson(stack, String(value));
      return canonicalNumber(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (value === null) return 'null';
      if (stack.length >= MAX_CANONICAL_DEPTH) tooDeep(stack);
      if (Array.isArray(value)) {
        let out = '[';
        for (let index = 0; index < value.length; index++) {
          if (index > 0) out += ',';
          const item: unknown = value[index];
          if (item === undefined) out += 'null';
          else {
            stack.push(index);
            out += write(item, stack);
            stack.pop();
          }
        }
        return `${out}]`;
      }
      const record = value as Record<string, unknown>;
      let out = '{';
      let first = true;
      for (const key of sortedKeys(record)) {
        const member = record[key];
        if (member === null || member === undefined) continue;
        if (!first) out += ',';
        first = false;
        stack.push(key);
        out += quotedKey(key) + write(member, stack);
        stack.pop();
      }
      return `${out}}`;
    }
    default:
      return notJson(stack, typeof value);
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
  return write(value, []);
}
