import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json';
import type { JsonValue } from './json';
import { cloneJson, measureJson, setOwnProperty } from './json-bounds';
import { toolMessageFromResult } from './messages';
import { resolveReferences } from './refs';

function nested(depth: number): JsonValue {
  let value: JsonValue = 1;
  for (let level = 0; level < depth; level++) value = { a: value };
  return value;
}

describe('measureJson', () => {
  it('measures depth and approximate size', () => {
    expect(measureJson({ a: [1, 2] })).toMatchObject({ ok: true, depth: 2 });
    expect(measureJson('x')).toMatchObject({ ok: true, depth: 0, bytes: 3 });
  });

  it('refuses a value deeper than the limit without overflowing, at any depth', () => {
    expect(measureJson(nested(64))).toMatchObject({ ok: true, depth: 64 });
    expect(measureJson(nested(65))).toMatchObject({ ok: false, problem: 'too_deep' });
    expect(measureJson(nested(200_000))).toMatchObject({ ok: false, problem: 'too_deep' });
  });

  it('refuses cycles and exponential sharing through the same limits', () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(measureJson(cycle)).toMatchObject({ ok: false, problem: 'too_deep' });
    let shared: unknown[] = ['leaf'];
    for (let level = 0; level < 60; level++) shared = [shared, shared];
    expect(measureJson(shared, { maxBytes: 1_000_000 })).toMatchObject({
      ok: false,
      problem: 'too_large',
    });
  });

  it('refuses what JSON cannot carry', () => {
    expect(measureJson({ a: 10n })).toMatchObject({ ok: false, problem: 'not_json' });
    expect(measureJson([Number.NaN])).toMatchObject({ ok: false, problem: 'not_json' });
    expect(measureJson({ f: () => 1 })).toMatchObject({ ok: false, problem: 'not_json' });
  });
});

describe('cloneJson and setOwnProperty', () => {
  it('copies deep values without recursion and keeps __proto__ keys as keys', () => {
    const deep = nested(100_000);
    expect(cloneJson(deep) === deep).toBe(false);
    const hostile = JSON.parse('{"__proto__":{"polluted":true},"a":[{"__proto__":1}]}');
    const copy = cloneJson(hostile);
    expect(Object.hasOwn(copy, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const target = {};
    setOwnProperty(target, '__proto__', { polluted: true });
    expect(Object.getPrototypeOf(target)).toBe(Object.prototype);
    expect(Object.keys(target)).toEqual(['__proto__']);
  });
});

describe('no recursion on the data path', () => {
  it('canonicalJson returns undefined for a 100,000-deep value instead of throwing', () => {
    expect(canonicalJson(nested(100_000))).toBeUndefined();
    expect(canonicalJson(nested(100))).toBe(JSON.stringify(nested(100)));
  });

  it('resolveReferences copies a 100,000-deep output without overflowing', () => {
    const deep = nested(100_000);
    const resolved = resolveReferences({ x: { $ref: 'call_1' } }, () => deep);
    expect(resolved.ok).toBe(true);
  });

  it('resolveReferences keeps a __proto__ key beside a reference as a key', () => {
    const args = JSON.parse('{"__proto__":{"b":{"$ref":"call_1"}}}');
    const resolved = resolveReferences(args, () => 7);
    expect(resolved.ok && Object.hasOwn(resolved.value as object, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).b).toBeUndefined();
  });

  it('toolMessageFromResult answers a too-deep output with an error message', () => {
    const message = toolMessageFromResult({
      call_id: 'call_1',
      tool_name: 'deep',
      output: nested(5_000),
      success: true,
      cached: false,
      skipped: false,
      created_at: new Date().toISOString(),
    });
    expect(message.is_error).toBe(true);
    expect(message.content).toMatch(/nests deeper than 1000 levels/);
  });
});

describe('scanReferences on values no parser makes', () => {
  it('ends on a cycle and reports it as malformed', async () => {
    const { scanReferences } = await import('./refs');
    const cycle: Record<string, unknown> = { a: { $ref: 'call_1' } };
    cycle.self = cycle;
    const scan = scanReferences(cycle);
    expect(scan.references.map((reference) => reference.location)).toEqual(['/a']);
    expect(scan.malformed).toEqual([
      {
        location: '/self',
        reason: 'the same object appears twice here (a cycle or a shared value); send plain JSON',
      },
    ]);
  });
});
