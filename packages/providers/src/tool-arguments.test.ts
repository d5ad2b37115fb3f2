import { describe, expect, it } from 'vitest';
import { assistantToolCallFromValue, parseToolArguments } from './tool-arguments';

describe('parseToolArguments', () => {
  it('parses an object, and reads empty text as no arguments', () => {
    expect(parseToolArguments('{"a":15,"b":27}')).toEqual({
      ok: true,
      arguments: { a: 15, b: 27 },
    });
    expect(parseToolArguments('  ')).toEqual({ ok: true, arguments: {} });
  });

  it('keeps text that is not a JSON object, with an error written for the model', () => {
    expect(parseToolArguments('"15"')).toMatchObject({
      ok: false,
      arguments: {},
      rawArguments: '"15"',
      error: 'The arguments must be a JSON object, not string "15".',
    });
    const broken = parseToolArguments('{"a":15,');
    expect(broken.ok).toBe(false);
    expect(!broken.ok && broken.error).toMatch(
      /^The arguments are not valid JSON \(Invalid JSON: .*\)\. Send one JSON object\.$/,
    );
  });
});

describe('assistantToolCallFromValue', () => {
  it('keeps an input that is not an object, with an error', () => {
    expect(assistantToolCallFromValue('toolu_1', 'add', [1, 2])).toEqual({
      id: 'toolu_1',
      name: 'add',
      arguments: {},
      depends_on: [],
      raw_arguments: '[1,2]',
      arguments_error: 'The arguments must be a JSON object, not array of 2.',
    });
  });
});
