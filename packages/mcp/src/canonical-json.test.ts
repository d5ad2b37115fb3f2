import { describe, expect, it } from 'vitest';
import { canonicalJson, jsonDigest } from './canonical-json';

describe('canonicalJson', () => {
  it('sorts keys at every depth and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}',
    );
  });

  it('gives equal digests for equal values written in another order', () => {
    expect(jsonDigest({ party: 2, when: { day: 1, month: 2 } })).toBe(
      jsonDigest({ when: { month: 2, day: 1 }, party: 2 }),
    );
    expect(jsonDigest({ party: 2 })).not.toBe(jsonDigest({ party: 3 }));
    expect(canonicalJson(undefined)).toBe('null');
  });
});
