import { InvalidRequestError } from './errors';

/** How deep a payload may nest before canonicalization refuses it (a guard against stack exhaustion). */
export const MAX_CANONICAL_DEPTH = 512;

// Rust's `str::trim` removes Unicode White_Space: unlike String.prototype.trim it keeps
// U+FEFF and removes U+0085. The reference hashes what Rust produces, so we trim the same set.
const whiteSpace =
  '\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const leadingWhiteSpace = new RegExp(`^[${whiteSpace}]+`);
const trailingWhiteSpace = new RegExp(`[${whiteSpace}]+$`);

/** `text` without leading and trailing Unicode White_Space, as Rust's `str::trim` gives it. */
export function trimUnicodeWhiteSpace(text: string): string {
  return text.replace(leadingWhiteSpace, '').replace(trailingWhiteSpace, '');
}

/**
 * Orders strings by Unicode code point, which is the byte order of their UTF-8 encoding
 * (how the reference sorts keys). Plain `<` compares UTF-16 units and puts U+E000–U+FFFF
 * after characters outside the Basic Multilingual Plane.
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

function notJson(path: string, what: string): never {
  throw new InvalidRequestError({
    message: `Cannot canonicalize: the value at ${JSON.stringify(path)} is ${what}, which JSON cannot carry.`,
    details: [{ path, message: `${what} is not a JSON value` }],
  });
}

function write(value: unknown, path: string, depth: number): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(trimUnicodeWhiteSpace(value));
    case 'number':
      if (!Number.isFinite(value)) notJson(path, String(value));
      return canonicalNumber(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (value === null) return 'null';
      if (depth >= MAX_CANONICAL_DEPTH)
        throw new InvalidRequestError({
          message: `Cannot canonicalize: the value nests deeper than ${MAX_CANONICAL_DEPTH} levels.`,
          details: [{ path, message: `nesting deeper than ${MAX_CANONICAL_DEPTH} levels` }],
        });
      if (Array.isArray(value)) {
        let out = '[';
        for (let index = 0; index < value.length; index++) {
          if (index > 0) out += ',';
          const item: unknown = value[index];
          out += item === undefined ? 'null' : write(item, `${path}/${index}`, depth + 1);
        }
        return `${out}]`;
      }
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record).sort(compareCodePoints);
      let out = '{';
      let first = true;
      for (const key of keys) {
        const member = record[key];
        if (member === null || member === undefined) continue;
        if (!first) out += ',';
        first = false;
        out += `${JSON.stringify(key)}:${write(member, `${path}/${escapePointer(key)}`, depth + 1)}`;
      }
      return `${out}}`;
    }
    default:
      return notJson(path, typeof value);
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
 * for payloads nested deeper than {@link MAX_CANONICAL_DEPTH}.
 *
 * @example
 * ```ts
 * canonicalize({ z: 1, a: 2, m: null }); // '{"a":2,"z":1}'
 * ```
 */
export function canonicalize(value: unknown): string {
  return write(value, '', 0);
}
