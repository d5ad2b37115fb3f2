import { describe, expect, it } from 'vitest';
import type { JsonValue } from './json';
import { evaluateJsonPointer, JsonPointerError, parseJsonPointer } from './json-pointer';

describe('parseJsonPointer', () => {
  it('splits and unescapes tokens (RFC 6901)', () => {
    expect(parseJsonPointer('')).toEqual({ ok: true, value: [] });
    expect(parseJsonPointer('/')).toEqual({ ok: true, value: [''] });
    expect(parseJsonPointer('/a~1b/m~0n/0')).toEqual({ ok: true, value: ['a/b', 'm~n', '0'] });
    // ~01 is "~1" literally, not "/": ~1 is unescaped before ~0
    expect(parseJsonPointer('/~01')).toEqual({ ok: true, value: ['~1'] });
  });

  it('rejects pointers that do not start with "/" and bad escapes', () => {
    for (const pointer of ['items/0', '/a~2', '/a~']) {
      const parsed = parseJsonPointer(pointer);
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) {
        expect(JsonPointerError.isInstance(parsed.error)).toBe(true);
        expect(parsed.error.code).toBe('invalid_pointer');
      }
    }
  });
});

describe('evaluateJsonPointer', () => {
  const document: JsonValue = { items: [{ id: 7, 'a/b': 1 }, { id: 8 }], '': 'empty key', n: null };

  it('selects values', () => {
    expect(evaluateJsonPointer(document, '')).toEqual({ ok: true, value: document });
    expect(evaluateJsonPointer(document, '/items/1/id')).toEqual({ ok: true, value: 8 });
    expect(evaluateJsonPointer(document, '/items/0/a~1b')).toEqual({ ok: true, value: 1 });
    expect(evaluateJsonPointer(document, '/')).toEqual({ ok: true, value: 'empty key' });
    expect(evaluateJsonPointer(document, '/n')).toEqual({ ok: true, value: null });
  });

  it.each([
    ['/items/2', /index 2 is past the end of the array of 2 at "\/items"/],
    ['/items/01', /"01" is not an array index/],
    ['/items/-', /"-" is not an array index/],
    ['/missing', /no key "missing" in the object at the root; its keys are "items", "", "n"/],
    ['/items/0/id/x', /cannot select "x" inside number 7 at "\/items\/0\/id"/],
    ['/n/x', /cannot select "x" inside null/],
  ])('explains why %s selects nothing', (pointer, message) => {
    const result = evaluateJsonPointer(document, pointer);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe('pointer_not_found');
      expect(result.error.message).toMatch(message);
    }
  });

  it('does not read inherited properties', () => {
    expect(evaluateJsonPointer({}, '/constructor').ok).toBe(false);
    expect(evaluateJsonPointer({}, '/__proto__').ok).toBe(false);
  });
});
