import { describe, expect, it } from 'vitest';
import { WrittenText } from './written-text';

describe('WrittenText', () => {
  it('keeps every write, in order, as soon as it is written', () => {
    const out = new WrittenText();
    out.write('one\n');
    expect(out.text()).toBe('one\n');
    out.write(Buffer.from('two\n'));
    out.write('three\n');
    expect(out.text()).toBe('one\ntwo\nthree\n');
  });

  it('joins a character whose bytes were split across writes', () => {
    const out = new WrittenText();
    const bytes = Buffer.from('…');
    out.write(bytes.subarray(0, 1));
    out.write(bytes.subarray(1));
    expect(out.text()).toBe('…');
  });
});
