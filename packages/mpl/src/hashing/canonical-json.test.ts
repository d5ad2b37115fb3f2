import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../errors';
import {
  canonicalize,
  canonicalNumber,
  compareCodePoints,
  MAX_CANONICAL_DEPTH,
} from './canonical-json';
import { hashCanonical, semanticHash, verifyHash } from './semantic-hash';

describe('canonicalize: the reference vectors', () => {
  it('sorts keys', () => {
    expect(canonicalize({ z: 1, a: 2, m: 3 })).toBe('{"a":2,"m":3,"z":1}');
  });

  it('drops null members', () => {
    expect(canonicalize({ a: 1, b: null, c: 3 })).toBe('{"a":1,"c":3}');
  });

  it('sorts nested objects and objects inside arrays', () => {
    const value = { outer: { z: 1, a: 2 }, array: [{ b: 2, a: 1 }] };
    expect(canonicalize(value)).toBe('{"array":[{"a":1,"b":2}],"outer":{"a":2,"z":1}}');
  });

  it('gives the reference BLAKE3 hash of the nested vector', () => {
    const value = { outer: { z: 1, a: 2 }, array: [{ b: 2, a: 1 }] };
    expect(semanticHash(value, { algorithm: 'b3' })).toBe(
      'b3:afc1fc18681335630a177c4dde69cb45fc572cd3b746bcb24afa81884a6912d3',
    );
  });
});

describe('canonicalize: numbers', () => {
  it('writes whole numbers as integers, whatever their spelling', () => {
    expect(
      canonicalize({ a: 1.0, b: -0, c: 1e3, d: JSON.parse('9007199254740993') as number }),
    ).toBe('{"a":1,"b":0,"c":1000,"d":9007199254740992}');
  });

  it('rounds fractions to 6 decimals', () => {
    expect(canonicalNumber(0.1)).toBe('0.1');
    expect(canonicalNumber(1.23456789)).toBe('1.234568');
    expect(canonicalNumber(-1.23456789)).toBe('-1.234568');
    expect(canonicalNumber(0.95)).toBe('0.95');
    expect(canonicalNumber(-2.5e-7)).toBe('-0.0');
    expect(canonicalNumber(1.0000009)).toBe('1.000001');
  });

  it('writes floats as Rust serde_json does (a fraction or an exponent, never bare)', () => {
    expect(canonicalNumber(2.0000001)).toBe('2.0');
    expect(canonicalNumber(0.0000001)).toBe('0.0');
    expect(canonicalNumber(-0.0000001)).toBe('-0.0');
    expect(canonicalNumber(0.000123)).toBe('0.000123');
    expect(canonicalNumber(1e20)).toBe('1e20');
    expect(canonicalNumber(1.5e20)).toBe('1.5e20');
    expect(canonicalNumber(1e300)).toBe('1e300');
  });

  it('keeps integers below 2^63 exact and sends larger ones through the float path', () => {
    expect(canonicalNumber(2 ** 62)).toBe('4611686018427387904');
    expect(canonicalNumber(2 ** 63)).toBe('9.223372036854776e18');
  });
});

describe('canonicalize: strings and unicode', () => {
  it('trims surrounding white space but keeps inner white space', () => {
    expect(canonicalize({ a: '  hello  world \n' })).toBe('{"a":"hello  world"}');
  });

  it('trims the Unicode White_Space set Rust trims: NEL yes, BOM no', () => {
    expect(canonicalize('\u00a0\u2003x\u3000\u0085')).toBe('"x"');
    expect(canonicalize('\ufeffx')).toBe('"\ufeffx"');
  });

  it('does not trim keys', () => {
    expect(canonicalize({ ' a ': 1 })).toBe('{" a ":1}');
  });

  it('sorts keys by code point (UTF-8 byte order), not by UTF-16 unit', () => {
    const keys = ['\u{1F600}', '\uFB01', 'z', 'é', 'A'];
    const canonical = canonicalize(Object.fromEntries(keys.map((key, index) => [key, index])));
    expect(canonical).toBe('{"A":4,"z":2,"é":3,"ﬁ":1,"😀":0}');
  });

  it('writes non-ASCII characters as themselves and escapes control characters', () => {
    expect(canonicalize({ name: 'Zoë 日本 😀', control: 'a\u0001b\tc' })).toBe(
      '{"control":"a\\u0001b\\tc","name":"Zoë 日本 😀"}',
    );
  });
});

describe('canonicalize: structure and limits', () => {
  it('keeps array order and nulls inside arrays', () => {
    expect(canonicalize([3, null, { b: null }, [true, false]])).toBe('[3,null,{},[true,false]]');
  });

  it('refuses values JSON cannot carry, naming where', () => {
    expect(() => canonicalize({ a: [1, Number.NaN] })).toThrowError(/"\/a\/1"/);
    try {
      canonicalize({ f: () => 1 });
    } catch (error) {
      expect(InvalidRequestError.isInstance(error)).toBe(true);
    }
  });

  it('refuses payloads nested deeper than the limit instead of exhausting the stack', () => {
    let deep: unknown = 1;
    for (let level = 0; level <= MAX_CANONICAL_DEPTH; level++) deep = [deep];
    expect(() => canonicalize(deep)).toThrowError(/deeper than/);
  });

  it('always writes valid JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(() => JSON.parse(canonicalize(value))).not.toThrow();
      }),
    );
  });

  it('does not depend on key order', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (record) => {
        const reversed = Object.fromEntries(Object.entries(record).reverse());
        expect(canonicalize(reversed)).toBe(canonicalize(record));
      }),
    );
  });

  it('orders like a UTF-8 byte comparison', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme' }),
        fc.string({ unit: 'grapheme' }),
        (left, right) => {
          const bytes = Buffer.compare(Buffer.from(left), Buffer.from(right));
          expect(Math.sign(compareCodePoints(left, right))).toBe(bytes);
        },
      ),
    );
  });
});

describe('semanticHash and verifyHash', () => {
  it('uses sha256 by default, as the tutorial shows', () => {
    expect(semanticHash({ a: 1 })).toBe(hashCanonical('{"a":1}', 'sha256'));
    expect(semanticHash({ a: 1 })).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('hashes payloads that differ only in spelling the same', () => {
    expect(semanticHash({ b: ' x ', a: 1.0, c: null })).toBe(semanticHash({ a: 1, b: 'x' }));
  });

  it('verifies with the algorithm its prefix names', () => {
    const value = { test: 'value' };
    expect(verifyHash(value, semanticHash(value))).toBe(true);
    expect(verifyHash(value, semanticHash(value, { algorithm: 'b3' }))).toBe(true);
    expect(verifyHash({ test: 'other' }, semanticHash(value))).toBe(false);
    expect(verifyHash(value, 'b3:wrong')).toBe(false);
    expect(verifyHash(value, 'md5:abc')).toBe(false);
    expect(verifyHash(Number.NaN, 'sha256:00')).toBe(false);
  });
});
