import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalize } from './canonical-json';
import { canonicalNumber } from './canonical-number';
import { semanticHash, verifyHash } from './semantic-hash';

// The canonical writer as it was before the key-order cache and the char-code scan (kept
// verbatim in behaviour): the new one must write the same bytes for every
// value, and refuse the same values with the same error.
const reference = (() => {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it looks for.
  const needsEscape = /["\\\u0000-\u001f\ud800-\udfff]/;
  const quote = (text: string) => (needsEscape.test(text) ? JSON.stringify(text) : `"${text}"`);
  const isWhiteSpace = (code: number) =>
    code === 0x20 ||
    (code >= 0x09 && code <= 0x0d) ||
    code === 0x85 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000;
  const trimmed = (text: string) => {
    let start = 0;
    let end = text.length;
    while (start < end && isWhiteSpace(text.charCodeAt(start))) start++;
    while (end > start && isWhiteSpace(text.charCodeAt(end - 1))) end--;
    return text.slice(start, end);
  };
  // Code point order on UTF-16 units (a lone surrogate sorts as the unit it is).
  const shift = (unit: number) => (unit <= 0xdfff ? unit + 0x2000 : unit - 0x800);
  const compare = (left: string, right: string) => {
    for (let index = 0; index < Math.min(left.length, right.length); index++) {
      const a = left.charCodeAt(index);
      const b = right.charCodeAt(index);
      if (a !== b) return a >= 0xd800 && b >= 0xd800 ? shift(a) - shift(b) : a - b;
    }
    return left.length - right.length;
  };
  const write = (value: unknown, depth: number): string => {
    switch (typeof value) {
      case 'string':
        return quote(trimmed(value));
      case 'number':
        if (!Number.isFinite(value)) throw new Error('not json');
        return canonicalNumber(value);
      case 'boolean':
        return String(value);
      case 'object': {
        if (value === null) return 'null';
        if (depth >= 512) throw new Error('too deep');
        if (Array.isArray(value))
          return `[${Array.from(value, (item) => (item === undefined ? 'null' : write(item, depth + 1))).join(',')}]`;
        const record = value as Record<string, unknown>;
        const members = Object.keys(record)
          .sort(compare)
          .filter((key) => record[key] !== null && record[key] !== undefined)
          .map((key) => `${quote(key)}:${write(record[key], depth + 1)}`);
        return `{${members.join(',')}}`;
      }
      default:
        throw new Error('not json');
    }
  };
  return (value: unknown) => write(value, 0);
})();

// Strings that exercise quoting, trimming and key order: controls, quotes, backslashes,
// Unicode white space at either end, characters from every UTF-8 length, lone surrogates.
const tricky = fc.constantFrom(
  '',
  ' ',
  '"',
  '\\',
  '\u0000',
  '\u001f',
  '\n',
  '\t',
  '\u0085',
  '\u00a0',
  '\u2028',
  '\u3000',
  '\ufeff',
  '\ud800',
  '\udfff',
  '\ud83d\ude00',
  '\ue000',
  '\uffff',
  'é',
  '中',
  'a',
  'Z',
  '~',
  '/',
  '__proto__',
  'constructor',
  '0',
  '10',
);
const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.string({ maxLength: 30 }),
  fc.array(tricky, { maxLength: 5 }).map((parts) => parts.join('')),
  tricky,
);
const number = fc.oneof(
  fc.double(),
  fc.integer(),
  fc.constantFrom(-0, 0.1, 1e-7, -2.5e-7, 1e21, 2 ** 53 + 2, -(2 ** 62), 2 ** 63, 1.5e300, 5e-324),
  fc.double({ min: -1e6, max: 1e6, noNaN: true }),
);
const { value: json } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    text,
    number,
    fc.boolean(),
    fc.constant(null),
    tie('array'),
    tie('object'),
  ),
  array: fc.array(fc.oneof(tie('value'), fc.constant(undefined)), { maxLength: 6 }),
  object: fc.dictionary(text, fc.oneof(tie('value'), fc.constant(undefined)), { maxKeys: 8 }),
}));

function outcome(write: (value: unknown) => string, value: unknown): string {
  try {
    return `ok ${write(value)}`;
  } catch {
    return 'refused';
  }
}

/** Why `canonicalize` refuses a value, or `undefined` when it takes it. */
function refusalOf(value: unknown): unknown {
  try {
    canonicalize(value);
    return undefined;
  } catch (error) {
    return error;
  }
}

describe('canonicalize: the same bytes as the reference writer', () => {
  it('on generated values (unicode, lone surrogates, -0, big and small numbers, nesting)', () => {
    fc.assert(
      fc.property(json, (value) => {
        expect(outcome(canonicalize, value)).toBe(outcome(reference, value));
      }),
      { numRuns: 3000 },
    );
  });

  it('on objects of one key set written in different orders (the key-order cache)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(text, { maxLength: 10 }), fc.integer(), (keys, seed) => {
        const forward = Object.fromEntries(keys.map((key, index) => [key, index + seed]));
        const backward = Object.fromEntries(
          [...keys].reverse().map((key) => [key, keys.indexOf(key) + seed]),
        );
        const written = canonicalize(forward);
        expect(written).toBe(reference(forward));
        expect(canonicalize(backward)).toBe(written);
      }),
      { numRuns: 1000 },
    );
  });

  it('hashes and verifies the same, whatever was hashed before', () => {
    fc.assert(
      fc.property(json, json, (first, second) => {
        // The generated values include some JSON cannot carry (Infinity, NaN): hashing one
        // before is refused and must change nothing; the hashed value itself must be JSON.
        const hashFirst = (algorithm: 'sha256' | 'b3') => {
          try {
            semanticHash(first, { algorithm });
          } catch {}
        };
        fc.pre(refusalOf(second) === undefined);
        hashFirst('sha256');
        const hash = semanticHash(second);
        expect(semanticHash(second)).toBe(hash);
        expect(verifyHash(second, hash)).toBe(true);
        hashFirst('b3');
        expect(verifyHash(second, semanticHash(second, { algorithm: 'b3' }))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('refuses what JSON cannot carry with the path to it', () => {
    expect(() => canonicalize({ b: { c: [1, Number.NaN] }, a: 1 })).toThrow(/"\/b\/c\/1"/);
    expect(() => canonicalize({ z: () => 1, a: { y: Symbol('s') } })).toThrow(/"\/a\/y"/);
    expect(verifyHash({ a: Number.POSITIVE_INFINITY }, 'sha256:00')).toBe(false);
  });
});
