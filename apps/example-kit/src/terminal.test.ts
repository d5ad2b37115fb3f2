import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { shorten, shouldColor, Terminal } from './terminal';
import { WrittenText } from './written-text';

const tty = Object.assign(new PassThrough(), { isTTY: true });
const pipe = new PassThrough();

describe('shouldColor', () => {
  it('follows --color / --no-color first, then NO_COLOR, FORCE_COLOR and the stream', () => {
    expect(shouldColor(pipe, true, {})).toBe(true);
    expect(shouldColor(tty, false, {})).toBe(false);
    expect(shouldColor(tty, undefined, { NO_COLOR: '1' })).toBe(false);
    expect(shouldColor(pipe, undefined, { FORCE_COLOR: '1' })).toBe(true);
    expect(shouldColor(tty, undefined, { FORCE_COLOR: '0' })).toBe(false);
    expect(shouldColor(tty, undefined, { FORCE_COLOR: 'false' })).toBe(false);
    expect(shouldColor(tty, undefined, {})).toBe(true);
    expect(shouldColor(tty, undefined, { TERM: 'dumb' })).toBe(false);
    expect(shouldColor(pipe, undefined, {})).toBe(false);
  });

  it('treats empty NO_COLOR and FORCE_COLOR as unset', () => {
    expect(shouldColor(tty, undefined, { NO_COLOR: '', FORCE_COLOR: '' })).toBe(true);
  });
});

describe('Terminal', () => {
  it('writes lines, and holds them back while a question is open', () => {
    const out = new WrittenText();
    const terminal = new Terminal(out, false);
    terminal.line('one');
    terminal.hold();
    terminal.line('two');
    terminal.line();
    expect(out.text()).toBe('one\n');
    terminal.release();
    expect(out.text()).toBe('one\ntwo\n\n');
  });

  it('pads labels so the lines after them align, coloured only when asked', () => {
    expect(new Terminal(pipe, false).label('model')).toBe('model      ');
    expect(new Terminal(pipe, true).label('model')).toBe('\u001b[1mmodel      \u001b[22m');
  });
});

describe('shorten', () => {
  it('cuts text to a length, with an ellipsis only when cut', () => {
    expect(shorten('abcdef', 6)).toBe('abcdef');
    expect(shorten('abcdefg', 6)).toBe('abcde…');
  });
});
