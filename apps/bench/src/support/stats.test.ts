import { describe, expect, it } from 'vitest';
import { interleave, pairedRatios, summarize } from './stats';

describe('summarize', () => {
  it('takes the middle sample of an odd count, with min and max', () => {
    expect(summarize([5, 1, 3])).toEqual({ median: 3, min: 1, max: 5, samples: [5, 1, 3] });
  });

  it('averages the middle two of an even count', () => {
    expect(summarize([4, 1, 3, 2]).median).toBe(2.5);
  });

  it('refuses an empty list', () => {
    expect(() => summarize([])).toThrow(/at least one/);
  });
});

describe('pairedRatios', () => {
  it('divides sample by sample, then summarizes', () => {
    expect(pairedRatios([2, 9, 4], [1, 3, 4])).toMatchObject({ median: 2, min: 1, max: 3 });
  });

  it('refuses lists of different lengths', () => {
    expect(() => pairedRatios([1], [1, 2])).toThrow(/pair/);
  });
});

describe('interleave', () => {
  it('runs each variant once per round, starting one later each round', async () => {
    const order: string[] = [];
    const variant = (name: string) =>
      [
        name,
        async (round: number) => {
          order.push(`${name}${round}`);
          return round;
        },
      ] as const;
    const samples = await interleave(3, [variant('a'), variant('b'), variant('c')]);
    expect(order).toEqual(['a0', 'b0', 'c0', 'b1', 'c1', 'a1', 'c2', 'a2', 'b2']);
    expect(samples).toEqual({ a: [0, 1, 2], b: [0, 1, 2], c: [0, 1, 2] });
  });
});
