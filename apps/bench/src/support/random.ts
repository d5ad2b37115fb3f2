/**
 * A seeded pseudo-random generator (mulberry32): the same seed gives the same numbers on
 * every machine and Node version, so a benchmark's inputs can be rebuilt exactly.
 */
export class SeededRandom {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let value = this.#state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  }

  /** An integer in [low, high], each equally likely. */
  integer(low: number, high: number): number {
    return low + Math.floor(this.next() * (high - low + 1));
  }

  /** A float in [low, high). */
  uniform(low: number, high: number): number {
    return low + this.next() * (high - low);
  }

  /** `count` distinct integers of [0, size), each subset equally likely (partial Fisher–Yates). */
  sample(size: number, count: number): number[] {
    const picked = new Map<number, number>();
    const result: number[] = [];
    for (let index = 0; index < count; index += 1) {
      const swap = this.integer(index, size - 1);
      const atSwap = picked.get(swap) ?? swap;
      picked.set(swap, picked.get(index) ?? index);
      result.push(atSwap);
    }
    return result;
  }
}
