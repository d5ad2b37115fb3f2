import { describe, expect, it } from 'vitest';
import { describeValue, InvalidJsonError, isJsonObject, safeParseJson } from './json';

describe('safeParseJson', () => {
  it('parses valid JSON', () => {
    expect(safeParseJson('{"a":[1,true,null]}')).toEqual({
      ok: true,
      value: { a: [1, true, null] },
    });
  });

  it('returns a typed error that keeps the text instead of throwing', () => {
    const parsed = safeParseJson('{"a":15,');
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(InvalidJsonError.isInstance(parsed.error)).toBe(true);
    expect(parsed.error.code).toBe('invalid_json');
    expect(parsed.error.text).toBe('{"a":15,');
    expect(parsed.error.message).toMatch(/^Invalid JSON: /);
  });
});

describe('isJsonObject', () => {
  it('accepts plain objects only', () => {
    expect(isJsonObject({})).toBe(true);
    expect(isJsonObject([])).toBe(false);
    expect(isJsonObject(null)).toBe(false);
    expect(isJsonObject('x')).toBe(false);
  });
});

describe('describeValue', () => {
  it('renders values the way error messages quote them', () => {
    expect(describeValue('15')).toBe('string "15"');
    expect(describeValue(12)).toBe('number 12');
    expect(describeValue(null)).toBe('null');
    expect(describeValue(undefined)).toBe('undefined');
    expect(describeValue([1, 2])).toBe('array of 2');
    expect(describeValue({ a: 1 })).toBe('object');
    expect(describeValue('x'.repeat(50))).toBe(`string "${'x'.repeat(40)}…"`);
  });
});
