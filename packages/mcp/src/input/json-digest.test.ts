import { describe, expect, it } from 'vitest';
import { jsonDigest } from './json-digest';

describe('jsonDigest', () => {
  it('gives equal digests for equal values written in another order', () => {
    expect(jsonDigest({ party: 2, when: { day: 1, month: 2 } })).toBe(
      jsonDigest({ when: { month: 2, day: 1 }, party: 2 }),
    );
    expect(jsonDigest({ party: 2 })).not.toBe(jsonDigest({ party: 3 }));
    expect(jsonDigest(undefined)).toBe(jsonDigest(null));
  });
});
