/**
 * Bounds on untrusted JSON-like values, checked by iterative walks that no deep value can
 * overflow: depth (nesting of arrays and objects), approximate size (the length of its
 * JSON text) and the kinds of values JSON can hold. Anything recursive in the runtime
 * (`JSON.stringify`, `structuredClone`, zod, Ajv) runs only on values that passed.
 */

/** Nesting levels allowed by default in arguments and outputs (`{}` is 1 level). @internal */
export const DEFAULT_JSON_MAX_DEPTH = 64;

/** Limits of {@link measureJson}. @internal */
export interface JsonBounds {
  /** Most nesting levels (`{}` and `[]` count 1 each). Default {@link DEFAULT_JSON_MAX_DEPTH}. */
  maxDepth?: number;
  /** Most bytes of (approximate) JSON text. Default: no limit. */
  maxBytes?: number;
}

/** Why a value is out of bounds. @internal */
export type JsonBoundsProblem = 'too_deep' | 'too_large' | 'not_json';

/** What {@link measureJson} found. @internal */
export type JsonMeasure =
  | { ok: true; depth: number; bytes: number }
  | { ok: false; problem: JsonBoundsProblem; message: string };

/**
 * Walks a value once, without recursion, and says whether it stays within `bounds`.
 * Cycles and shared sub-values count as deep or large as their unfolded JSON would be, so
 * they are refused by the same limits (the walk stops as soon as a limit is passed).
 * `not_json` covers bigint, symbols, functions and non-finite numbers; `undefined` object
 * members are skipped as `JSON.stringify` does.
 *
 * @example
 * ```ts source="./protocol.examples.ts#measureJson"
 * measureJson({ a: [1, 2] }); // { ok: true, depth: 2, bytes: 11 }
 * measureJson(deeplyNested, { maxDepth: 64 }); // { ok: false, problem: 'too_deep', message: '…' }
 * ```
 * @internal
 */
export function measureJson(value: unknown, bounds: JsonBounds = {}): JsonMeasure {
  const maxDepth = bounds.maxDepth ?? DEFAULT_JSON_MAX_DEPTH;
  const maxBytes = bounds.maxBytes ?? Number.POSITIVE_INFINITY;
  let bytes = 0;
  let deepest = 0;
  const values: unknown[] = [value];
  const depths: number[] = [0];
  while (values.length > 0) {
    const current = values.pop();
    const depth = depths.pop() as number;
    switch (typeof current) {
      case 'string':
        bytes += current.length + 2;
        break;
      case 'number':
        if (!Number.isFinite(current)) return notJson(`a non-finite number (${current})`);
        bytes += 8;
        break;
      case 'boolean':
        bytes += 5;
        break;
      case 'undefined':
        bytes += 4;
        break;
      case 'object': {
        if (current === null) {
          bytes += 4;
          break;
        }
        const level = depth + 1;
        if (level > maxDepth) {
          return {
            ok: false,
            problem: 'too_deep',
            message: `it nests deeper than ${maxDepth} levels of arrays and objects`,
          };
        }
        if (level > deepest) deepest = level;
        bytes += 2;
        if (Array.isArray(current)) {
          bytes += current.length;
          if (bytes > maxBytes) return tooLarge(maxBytes);
          for (let index = current.length - 1; index >= 0; index--) {
            values.push(current[index]);
            depths.push(level);
          }
        } else {
          const keys = Object.keys(current);
          for (let index = keys.length - 1; index >= 0; index--) {
            const key = keys[index] as string;
            const member = (current as Record<string, unknown>)[key];
            if (member === undefined) continue;
            bytes += key.length + 4;
            values.push(member);
            depths.push(level);
          }
        }
        break;
      }
      default:
        return notJson(`a ${typeof current}`);
    }
    if (bytes > maxBytes) return tooLarge(maxBytes);
  }
  return { ok: true, depth: deepest, bytes };
}

function tooLarge(maxBytes: number): JsonMeasure {
  return {
    ok: false,
    problem: 'too_large',
    message: `it is larger than ${maxBytes} bytes of JSON`,
  };
}

function notJson(what: string): JsonMeasure {
  return { ok: false, problem: 'not_json', message: `it holds ${what}, which JSON cannot carry` };
}

/**
 * Sets an own, enumerable data property, even for the key `__proto__` (a plain
 * assignment would change the object's prototype instead).
 * @internal
 */
export function setOwnProperty(target: object, key: string | number, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  } else {
    (target as Record<string | number, unknown>)[key] = value;
  }
}

/**
 * A deep copy of a JSON value made without recursion (`structuredClone` recurses and
 * overflows on deep values). Own `__proto__` keys are copied as keys. Objects that are not
 * plain (class instances) are shared, not copied. Measure untrusted values first
 * ({@link measureJson}): a cycle would never end.
 *
 * @example
 * ```ts source="./protocol.examples.ts#cloneJson"
 * const copy = cloneJson({ a: [1, { b: 2 }] });
 * ```
 * @internal
 */
export function cloneJson<TValue>(value: TValue): TValue {
  if (!isPlainContainer(value)) return value;
  const copyOf = (source: object): object => (Array.isArray(source) ? [] : {});
  const root = copyOf(value);
  const sources: object[] = [value];
  const targets: object[] = [root];
  while (sources.length > 0) {
    const source = sources.pop() as object;
    const target = targets.pop() as object;
    const keys = Array.isArray(source) ? source.keys() : Object.keys(source);
    for (const key of keys) {
      const member = (source as Record<string | number, unknown>)[key];
      if (isPlainContainer(member)) {
        const copy = copyOf(member);
        setOwnProperty(target, key, copy);
        sources.push(member);
        targets.push(copy);
      } else {
        setOwnProperty(target, key, member);
      }
    }
  }
  return root as TValue;
}

function isPlainContainer(value: unknown): value is object {
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return true;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
