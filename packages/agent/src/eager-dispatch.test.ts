import { defineTool } from '@mtpx/executor';
import { describe, expect, it } from 'vitest';
import { objectProvider } from './__fixtures__/object-provider';
import { eagerDispatchMode, finishedNormally, startsEarly } from './eager-dispatch';
import { createAgent } from './index';

const tool = (risk: 'read_only' | 'write', eager?: boolean) =>
  defineTool({
    name: `t.${risk}`,
    description: 'x',
    risk_level: risk,
    ...(eager === undefined ? {} : { eager }),
    input_schema: { type: 'object' },
    execute: () => 1,
  });

describe('eagerDispatch modes', () => {
  it("accepts 'safe', 'all', false, and true for older code (= 'safe')", () => {
    expect(eagerDispatchMode('safe')).toBe('safe');
    expect(eagerDispatchMode('all')).toBe('all');
    expect(eagerDispatchMode(false)).toBe(false);
    expect(eagerDispatchMode(true)).toBe('safe');
    expect(() =>
      createAgent({ provider: objectProvider([]), tools: [], eagerDispatch: 'fast' as never }),
    ).toThrow(/eagerDispatch must be 'safe', 'all' or false, got "fast"/);
  });

  it('starts read-only tools and tools that opt in; holds the rest and unknown tools', () => {
    expect(startsEarly(tool('read_only'))).toBe(true);
    expect(startsEarly(tool('write'))).toBe(false);
    expect(startsEarly(tool('write', true))).toBe(true);
    expect(startsEarly(tool('read_only', false))).toBe(false);
    expect(startsEarly(undefined)).toBe(false);
  });

  it('a response finished normally only with tool_calls or stop', () => {
    expect(['tool_calls', 'stop'].map(finishedNormally)).toEqual([true, true]);
    expect(['length', 'content_filter', 'refusal', 'error', 'other'].some(finishedNormally)).toBe(
      false,
    );
  });
});
