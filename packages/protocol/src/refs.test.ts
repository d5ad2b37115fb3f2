import { describe, expect, it } from 'vitest';
import type { JsonValue } from './json';
import {
  findRefs,
  isReference,
  RefResolutionError,
  resolveReferences,
  scanReferences,
} from './refs';

describe('isReference', () => {
  it('accepts objects whose keys are exactly $ref, or $ref and $path', () => {
    expect(isReference({ $ref: 'call_1' })).toBe(true);
    expect(isReference({ $path: '/a', $ref: 'call_1' })).toBe(true);
  });

  it('treats objects with other keys as ordinary values', () => {
    expect(isReference({ $ref: 'call_1', note: 'x' })).toBe(false);
    expect(isReference({ $ref: '#/definitions/a', type: 'object' })).toBe(false);
    expect(isReference({ $path: '/a' })).toBe(false);
    expect(isReference([{ $ref: 'call_1' }])).toBe(false);
  });

  it('refuses malformed references', () => {
    expect(isReference({ $ref: '' })).toBe(false);
    expect(isReference({ $ref: 5 })).toBe(false);
    expect(isReference({ $ref: 'call_1', $path: 'no-slash' })).toBe(false);
  });
});

describe('findRefs', () => {
  it('finds references nested in objects and arrays, in document order', () => {
    const args = {
      first: { $ref: 'call_2' },
      list: [1, { $ref: 'call_1', $path: '/items/0' }, [{ deep: { $ref: 'call_3' } }]],
      again: { $ref: 'call_2' },
    };
    expect(findRefs(args)).toEqual(['call_2', 'call_1', 'call_3', 'call_2']);
  });

  it('does not look inside a reference or into non-reference $ref objects as references', () => {
    expect(findRefs({ schema: { $ref: '#/x', type: 'string' } })).toEqual([]);
    expect(findRefs({ wrapper: { $ref: 'call_1', extra: { $ref: 'call_2' } } })).toEqual([
      'call_2',
    ]);
  });

  it('finds nothing in scalars', () => {
    expect(findRefs(null)).toEqual([]);
    expect(findRefs('call_1')).toEqual([]);
    expect(findRefs(3)).toEqual([]);
  });

  it('handles arguments nested far deeper than the call stack allows recursion', () => {
    let value: JsonValue = { $ref: 'call_deep' };
    for (let depth = 0; depth < 50_000; depth++) value = [value];
    expect(findRefs({ a: value })).toEqual(['call_deep']);
  });
});

describe('scanReferences', () => {
  it('reports locations and malformed references', () => {
    const scan = scanReferences({
      a: { $ref: 'call_1' },
      'b/c': [{ $ref: 'call_2', $path: '/x' }],
      bad: { $ref: 7 },
      badPath: { $ref: 'call_3', $path: 'x' },
    });
    expect(scan.references.map(({ $ref, location }) => ({ $ref, location }))).toEqual([
      { $ref: 'call_1', location: '/a' },
      { $ref: 'call_2', location: '/b~1c/0' },
    ]);
    expect(scan.references[1]?.segments).toEqual(['b/c', 0]);
    expect(scan.malformed).toEqual([
      { location: '/bad', reason: '"$ref" must be a call id (a non-empty string), got number 7' },
      {
        location: '/badPath',
        reason: 'Invalid JSON Pointer "x": a JSON Pointer is empty or starts with "/".',
      },
    ]);
  });
});

describe('resolveReferences', () => {
  const outputs = new Map<string, JsonValue>([
    ['call_1', 12],
    ['call_2', { items: [{ id: 'a1' }, { id: 'b2' }] }],
    ['call_null', null],
  ]);
  const lookup = (id: string) => outputs.get(id);

  it('replaces references with outputs, narrowed by $path', () => {
    const args = {
      a: 4,
      b: { $ref: 'call_1' },
      ids: [{ $ref: 'call_2', $path: '/items/1/id' }],
      whole: { $ref: 'call_2' },
      nothing: { $ref: 'call_null' },
    };
    expect(resolveReferences(args, lookup)).toEqual({
      ok: true,
      value: {
        a: 4,
        b: 12,
        ids: ['b2'],
        whole: { items: [{ id: 'a1' }, { id: 'b2' }] },
        nothing: null,
      },
    });
  });

  it('never modifies the arguments and never shares structure with outputs', () => {
    const args = { b: { $ref: 'call_2' } };
    const result = resolveReferences(args, lookup);
    expect(args).toEqual({ b: { $ref: 'call_2' } });
    if (!result.ok) throw result.error;
    ((result.value as { b: { items: unknown[] } }).b.items as unknown[]).push('mutated');
    expect(outputs.get('call_2')).toEqual({ items: [{ id: 'a1' }, { id: 'b2' }] });
  });

  it('returns the arguments unchanged when they hold no references', () => {
    const args = { a: 1 };
    const result = resolveReferences(args, lookup);
    expect(result.ok && result.value).toBe(args);
  });

  it('resolves a reference standing at the top level', () => {
    expect(resolveReferences({ $ref: 'call_1' }, lookup)).toEqual({ ok: true, value: 12 });
  });

  it('names the unknown call and where the reference stood', () => {
    const result = resolveReferences({ x: [{ $ref: 'call_9' }] }, lookup);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(RefResolutionError.isInstance(result.error)).toBe(true);
    expect(result.error.code).toBe('unknown_reference');
    expect(result.error.callId).toBe('call_9');
    expect(result.error.location).toBe('/x/0');
    expect(result.error.message).toContain('"call_9"');
  });

  it('explains a $path that selects nothing', () => {
    const result = resolveReferences({ id: { $ref: 'call_2', $path: '/items/5/id' } }, lookup);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('pointer_not_found');
    expect(result.error.message).toBe(
      'The reference at "/id" to the output of "call_2": JSON Pointer "/items/5/id" selects nothing: index 5 is past the end of the array of 2 at "/items".',
    );
  });

  it('refuses malformed references', () => {
    const result = resolveReferences({ a: { $ref: '' } }, lookup);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe('invalid_reference');
  });
});

describe('resolveReferences: copies', () => {
  it('replaces several references inside one shared container without touching the input', () => {
    const args: JsonValue = {
      pair: [{ $ref: 'a' }, { $ref: 'b', $path: '/x' }],
      keep: { deep: [1, 2] },
    };
    const snapshot = structuredClone(args);
    const result = resolveReferences(args, (id) => (id === 'a' ? 1 : { x: { y: 2 } }));
    expect(result).toEqual({ ok: true, value: { pair: [1, { y: 2 }], keep: { deep: [1, 2] } } });
    expect(args).toEqual(snapshot);
  });

  it('copies an object output resolved at the top level', () => {
    const output = { items: [1] };
    const result = resolveReferences({ $ref: 'a' }, () => output);
    expect(result.ok && result.value).toEqual(output);
    expect(result.ok && result.value).not.toBe(output);
  });
});
