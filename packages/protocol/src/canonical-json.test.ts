import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json';

describe('canonicalJson', () => {
  it('sorts keys at every depth, keeps array order, drops undefined members', () => {
    expect(canonicalJson({ b: 1, a: [2, { d: 3, c: 4 }], u: undefined })).toBe(
      '{"a":[2,{"c":4,"d":3}],"b":1}',
    );
    expect(canonicalJson({ a: 1, b: 2 })).toBe(canonicalJson({ b: 2, a: 1 }));
    expect(canonicalJson('x')).toBe('"x"');
  });

  it('refuses what JSON cannot hold, and nesting too deep to walk', () => {
    expect(canonicalJson({ a: Number.NaN })).toBeUndefined();
    expect(canonicalJson({ a: new Date() })).toBeUndefined();
    expect(canonicalJson({ a: () => 1 })).toBeUndefined();
    let deep: unknown = 1;
    for (let depth = 0; depth < 10_000; depth++) deep = [deep];
    expect(canonicalJson(deep)).toBeUndefined();
  });
});
