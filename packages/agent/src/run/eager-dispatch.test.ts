import { describe, expect, it } from 'vitest';
import { objectProvider } from '../__fixtures__/object-provider';
import { createAgent } from '../index';
import { eagerDispatchMode, finishedNormally } from './eager-dispatch';

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

  // Which calls start early (startsEarly / holdSideEffects) is the executor's rule, tested
  // there: packages/executor/src/policy/side-effect-hold.test.ts.

  it('a response finished normally only with tool_calls or stop', () => {
    expect(['tool_calls', 'stop'].map(finishedNormally)).toEqual([true, true]);
    expect(['length', 'content_filter', 'refusal', 'error', 'other'].some(finishedNormally)).toBe(
      false,
    );
  });
});
