import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { LineReader } from './line-reader';

describe('LineReader', () => {
  it('keeps lines typed ahead for the next questions, and ends with the input', async () => {
    const input = new PassThrough();
    const lines = new LineReader(input);
    input.write('first\nsecond\r\n');
    expect(await lines.next()).toBe('first');
    expect(await lines.next()).toBe('second');
    input.end('third');
    expect(await lines.next()).toBe('third');
    expect(await lines.next()).toBeUndefined();
    lines.close();
  });

  it('answers undefined when the signal fires first, and keeps the line for later', async () => {
    const input = new PassThrough();
    const lines = new LineReader(input);
    const controller = new AbortController();
    const waiting = lines.next(controller.signal);
    controller.abort();
    expect(await waiting).toBeUndefined();
    expect(await lines.next(controller.signal)).toBeUndefined();
    lines.close();
  });
});
