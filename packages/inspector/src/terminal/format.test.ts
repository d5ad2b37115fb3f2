import { describe, expect, it } from 'vitest';
import { formatCall, formatMs, formatValue, referencedIds } from './format';

describe('timeline formatting', () => {
  it('writes a call as a function application, references as $ids', () => {
    expect(formatCall('calculator.multiply', { a: 4, b: { $ref: 'call_1' } })).toBe(
      'calculator.multiply(a: 4, b: $call_1)',
    );
    expect(formatCall('lookup', { id: { $ref: 'call_2', $path: '/items/0/id' } })).toBe(
      'lookup(id: $call_2/items/0/id)',
    );
  });

  it('keeps an object with more keys than $ref an ordinary value', () => {
    expect(formatValue({ $ref: '#/defs/x', type: 'object' })).toBe(
      '{$ref: "#/defs/x", type: "object"}',
    );
  });

  it('shows the first line of long text, shortened', () => {
    expect(formatValue('first line\nsecond line')).toBe('"first line…"');
    expect(formatValue('x'.repeat(50), 10)).toBe(`"${'x'.repeat(9)}…"`);
  });

  it('finds every referenced id, nested too', () => {
    expect(
      referencedIds({ a: { $ref: 'call_1' }, list: [{ $ref: 'call_2', $path: '/0' }], n: 3 }),
    ).toEqual(['call_1', 'call_2']);
  });

  it('writes durations in ms, then seconds', () => {
    expect(formatMs(152.4)).toBe('152 ms');
    expect(formatMs(1370)).toBe('1.37 s');
  });
});
