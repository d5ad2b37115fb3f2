import { trimUnicodeWhiteSpace } from '../hashing/canonical-json';

// The values and functions of the CEL subset that cel-compile.ts compiles: JSON values as
// they are (objects are maps, arrays lists, numbers int or double), timestamps, errors.

/** An evaluation error (a missing field, a type mismatch): CEL's error value. */
export class CelEvalError {
  constructor(readonly message: string) {}
}

/** A `timestamp(…)` value: milliseconds since the epoch and the nanoseconds below them. */
class Timestamp {
  constructor(
    readonly millis: number,
    readonly nanos: number,
  ) {}
}

/** True for CEL's error value. */
export const isError = (value: unknown): value is CelEvalError => value instanceof CelEvalError;
/** True for a JSON object (a CEL map). */
export const isMap = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  !(value instanceof Timestamp) &&
  !(value instanceof CelEvalError);
/** The error of a function applied to values it has no overload for. */
export const noOverload = (name: string) => new CelEvalError(`no such overload: ${name}`);

const rfc3339 =
  /^(\d{4})-(\d\d)-(\d\d)[Tt](\d\d):(\d\d):(\d\d)(?:\.(\d{1,9}))?([Zz]|[+-]\d\d:\d\d)$/;

function toTimestamp(text: unknown): unknown {
  if (typeof text !== 'string') return noOverload('timestamp');
  const match = rfc3339.exec(text);
  const millis = match ? Date.parse(text) : Number.NaN;
  if (!match || Number.isNaN(millis))
    return new CelEvalError(`timestamp: cannot parse ${JSON.stringify(text)}`);
  const fraction = (match[7] ?? '').padEnd(9, '0');
  return new Timestamp(millis, Number(fraction.slice(3)));
}

/** CEL equality on JSON values: numbers numerically, lists and maps member by member. */
function equals(left: unknown, right: unknown): boolean {
  // A null, bool, number or string equals only itself (1 and 1.0 are one JS number).
  if (typeof left !== 'object' || left === null) return left === right;
  if (Array.isArray(left))
    return (
      Array.isArray(right) &&
      left.length === right.length &&
      left.every((item, index) => equals(item, right[index]))
    );
  if (left instanceof Timestamp)
    return right instanceof Timestamp && left.millis === right.millis && left.nanos === right.nanos;
  if (isMap(left)) {
    if (!isMap(right)) return false;
    const keys = Object.keys(left);
    return (
      keys.length === Object.keys(right).length &&
      keys.every((key) => Object.hasOwn(right, key) && equals(left[key], right[key]))
    );
  }
  return false;
}

/** -1, 0 or 1, or an error when CEL has no ordering for the two. */
function compare(left: unknown, right: unknown): number | CelEvalError {
  if (typeof left === 'number' && typeof right === 'number')
    return left < right ? -1 : left > right ? 1 : 0;
  if (typeof left === 'string' && typeof right === 'string')
    return left < right ? -1 : left > right ? 1 : 0;
  if (typeof left === 'boolean' && typeof right === 'boolean') return Number(left) - Number(right);
  if (left instanceof Timestamp && right instanceof Timestamp)
    return Math.sign(left.millis - right.millis || left.nanos - right.nanos);
  return noOverload('compare');
}

function sizeOf(value: unknown): unknown {
  if (typeof value === 'string') {
    // Code points: UTF-16 units less the low halves of surrogate pairs.
    let count = value.length;
    for (let index = 1; index < value.length; index++) {
      const unit = value.charCodeAt(index);
      if (unit >= 0xdc00 && unit <= 0xdfff) {
        const before = value.charCodeAt(index - 1);
        if (before >= 0xd800 && before <= 0xdbff) count--;
      }
    }
    return count;
  }
  if (Array.isArray(value)) return value.length;
  if (isMap(value)) return Object.keys(value).length;
  return noOverload('size');
}

/** The truthiness assertions use (the reference's): false, null, 0 and empty values fail. */
export function isTruthyJson(value: unknown): boolean {
  if (value === null || value === false || value === undefined) return false;
  if (typeof value === 'number') return value !== 0;
  if (typeof value === 'string') return value.length > 0;
  if (Array.isArray(value)) return value.length > 0;
  if (isMap(value)) return Object.keys(value).length > 0;
  return true;
}

const patterns = new Map<string, RegExp | CelEvalError>();

/** The compiled `matches` pattern (cached), or the error of an invalid one. */
export function regexOf(pattern: string): RegExp | CelEvalError {
  let compiled = patterns.get(pattern);
  if (compiled === undefined) {
    try {
      compiled = new RegExp(pattern, 'u');
    } catch (cause) {
      compiled = new CelEvalError(`invalid regular expression: ${String(cause)}`);
    }
    if (patterns.size < 256) patterns.set(pattern, compiled);
  }
  return compiled;
}

/** A function whose arguments are evaluated first (an error argument is the result). */
export type Strict = (first: unknown, second: unknown) => unknown;

/** The functions of the subset, by their CEL name. */
export const strictFunctions: Record<string, Strict> = {
  '!_': (value) => (typeof value === 'boolean' ? !value : noOverload('!_')),
  '_==_': (left, right) => equals(left, right),
  '_!=_': (left, right) => !equals(left, right),
  '_<_': (left, right) => ordered(compare(left, right), (order) => order < 0),
  '_<=_': (left, right) => ordered(compare(left, right), (order) => order <= 0),
  '_>_': (left, right) => ordered(compare(left, right), (order) => order > 0),
  '_>=_': (left, right) => ordered(compare(left, right), (order) => order >= 0),
  '@in': (item, container) => {
    if (Array.isArray(container)) return container.some((member) => equals(member, item));
    if (isMap(container)) return typeof item === 'string' && Object.hasOwn(container, item);
    return noOverload('@in');
  },
  '@not_strictly_false': (value) => value !== false,
  '_[_]': (container, index) => {
    if (Array.isArray(container)) {
      if (typeof index !== 'number' || !Number.isInteger(index)) return noOverload('_[_]');
      return index >= 0 && index < container.length
        ? container[index]
        : new CelEvalError(`index out of range: ${index}`);
    }
    if (isMap(container)) {
      if (typeof index !== 'string') return noOverload('_[_]');
      return Object.hasOwn(container, index)
        ? container[index]
        : new CelEvalError(`no such key: ${index}`);
    }
    return noOverload('_[_]');
  },
  size: (value) => sizeOf(value),
  timestamp: (value) => toTimestamp(value),
  startsWith: (text, prefix) =>
    typeof text === 'string' && typeof prefix === 'string'
      ? text.startsWith(prefix)
      : noOverload('startsWith'),
  endsWith: (text, suffix) =>
    typeof text === 'string' && typeof suffix === 'string'
      ? text.endsWith(suffix)
      : noOverload('endsWith'),
  contains: (text, part) =>
    typeof text === 'string' && typeof part === 'string'
      ? text.includes(part)
      : noOverload('contains'),
  matches: (text, pattern) => {
    if (typeof text !== 'string' || typeof pattern !== 'string') return noOverload('matches');
    const regex = regexOf(pattern);
    return isError(regex) ? regex : regex.test(text);
  },
  trim: (text) => (typeof text === 'string' ? trimUnicodeWhiteSpace(text) : noOverload('trim')),
  lowerAscii: (text) =>
    typeof text === 'string'
      ? text.replace(/[A-Z]/g, (letter) => letter.toLowerCase())
      : noOverload('lowerAscii'),
  upperAscii: (text) =>
    typeof text === 'string'
      ? text.replace(/[a-z]/g, (letter) => letter.toUpperCase())
      : noOverload('upperAscii'),
};

function ordered(order: number | CelEvalError, test: (order: number) => boolean): unknown {
  return isError(order) ? order : test(order);
}
