import { describe, expect, it } from 'vitest';
import { defineTool } from '../tools/define-tool';
import { holdSideEffects, startsEarly } from './side-effect-hold';

const tool = (risk: 'read_only' | 'write', eager?: boolean) =>
  defineTool({
    name: `t.${risk}`,
    description: 'x',
    risk_level: risk,
    ...(eager === undefined ? {} : { eager }),
    input_schema: { type: 'object' },
    execute: () => 1,
  });

describe('which calls start before their response has finished', () => {
  it('starts read-only tools and tools that opt in; holds the rest and unknown tools', () => {
    expect(startsEarly(tool('read_only'))).toBe(true);
    expect(startsEarly(tool('write'))).toBe(false);
    expect(startsEarly(tool('write', true))).toBe(true);
    expect(startsEarly(tool('read_only', false))).toBe(false);
    expect(startsEarly(undefined)).toBe(false);
  });

  it('holdSideEffects says why, in words for people', () => {
    const call = { id: 'call_1', name: 't.write', arguments: {}, depends_on: [] };
    expect(holdSideEffects(call, tool('write'))).toBe('risk level write');
    expect(holdSideEffects(call, undefined)).toBe('no loaded tool is named "t.write"');
    expect(holdSideEffects(call, tool('read_only'))).toBeUndefined();
  });
});
