import { describe, expect, it } from 'vitest';
import { visibleLength, wrapLine } from './line-wrap';

describe('wrapLine', () => {
  it('keeps a line that fits, and every line when there is no width', () => {
    expect(wrapLine('short line', 80)).toEqual(['short line']);
    expect(wrapLine('x'.repeat(200), undefined)).toEqual(['x'.repeat(200)]);
  });

  it('breaks at spaces only, with a hanging indent', () => {
    const lines = wrapLine(
      'question   What is 15 + (4 × (18 − 6)) / 3? Also back up notes.txt',
      30,
      11,
    );
    expect(lines).toEqual([
      'question   What is 15 + (4 ×',
      '           (18 − 6)) / 3? Also',
      '           back up notes.txt',
    ]);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(30);
  });

  it('counts colour codes as nothing and never cuts a word', () => {
    const text = `\u001b[1mbold\u001b[22m ${'averyveryverylongword'} end`;
    expect(visibleLength(text)).toBe(30);
    expect(wrapLine(text, 12, 2)).toEqual([
      '\u001b[1mbold\u001b[22m',
      '  averyveryverylongword',
      '  end',
    ]);
  });

  it('keeps a unit with its number', () => {
    expect(wrapLine('done call_6 in 27 ms', 18, 2)).toEqual(['done call_6 in', '  27 ms']);
  });
});
