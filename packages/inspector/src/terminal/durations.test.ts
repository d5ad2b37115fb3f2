import { describe, expect, it } from 'vitest';
import { formatMs, formatSpan } from './durations';

describe('formatMs and formatSpan', () => {
  it('write milliseconds below a second and seconds from one, nothing else', () => {
    expect(formatMs(3.4)).toBe('3 ms');
    expect(formatMs(999.4)).toBe('999 ms');
    expect(formatMs(999.6)).toBe('1.00 s');
    expect(formatMs(8102)).toBe('8.10 s');
  });

  it('write a span in one unit, the end’s', () => {
    expect(formatSpan(311.2, 741.7)).toBe('311–742 ms');
    expect(formatSpan(1023, 1181)).toBe('1.02–1.18 s');
    expect(formatSpan(640, 1181)).toBe('0.64–1.18 s');
  });
});
