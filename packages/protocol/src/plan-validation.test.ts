import { describe, expect, it } from 'vitest';
import { call, ref } from './__fixtures__/call-builders';
import type { ExecutionPlanInput } from './execution-plan';
import { PlanValidationError } from './plan-issue';
import { assertValidPlan, validateExecutionPlan } from './plan-validation';
import type { ToolCallInput } from './tool-call';

const parallel = (...calls: ToolCallInput[]) => ({ mode: 'parallel' as const, calls });
const sequential = (...calls: ToolCallInput[]) => ({ mode: 'sequential' as const, calls });
const codes = (plan: unknown, options = {}) =>
  validateExecutionPlan(plan as ExecutionPlanInput, options).map((issue) => issue.code);

describe('validateExecutionPlan: valid plans', () => {
  it('accepts the seed chain written as four batches', () => {
    const plan = {
      batches: [
        parallel(call('call_1', { a: 18, b: 6 })),
        parallel(call('call_2', { a: 4, b: ref('call_1') })),
        parallel(call('call_3', { a: ref('call_2'), b: 3 })),
        parallel(call('call_4', { a: 15, b: ref('call_3') })),
      ],
    };
    expect(validateExecutionPlan(plan)).toEqual([]);
  });

  it('accepts references to earlier calls of the same sequential batch', () => {
    const plan = {
      batches: [sequential(call('a'), call('b', { x: ref('a') }), call('c', {}, ['b']))],
    };
    expect(validateExecutionPlan(plan)).toEqual([]);
  });

  it('accepts references to history, as a list, Set, Map or object', () => {
    const plan = { batches: [parallel(call('call_5', { x: ref('call_1') }, ['call_2']))] };
    for (const history of [
      ['call_1', 'call_2'],
      new Set(['call_1', 'call_2']),
      new Map([
        ['call_1', {}],
        ['call_2', {}],
      ]),
      { call_1: {}, call_2: {} },
    ]) {
      expect(validateExecutionPlan(plan, { history })).toEqual([]);
    }
  });

  it('accepts an empty plan and batches without a mode (parallel by default)', () => {
    expect(validateExecutionPlan({ batches: [] })).toEqual([]);
    expect(codes({ batches: [{ calls: [call('a')] }] })).toEqual([]);
  });
});

describe('validateExecutionPlan: rule 1, unique ids', () => {
  it('reports duplicate ids with both locations', () => {
    const issues = validateExecutionPlan({ batches: [parallel(call('a')), parallel(call('a'))] });
    expect(issues).toEqual([
      {
        code: 'duplicate_id',
        callIds: ['a'],
        location: 'batches[1].calls[0]',
        message:
          'Call id "a" is used twice (batches[0].calls[0] and batches[1].calls[0]); give every call its own id.',
      },
    ]);
  });

  it('reports an id reused from an earlier round', () => {
    const issues = validateExecutionPlan(
      { batches: [parallel(call('call_1'))] },
      { history: ['call_1'] },
    );
    expect(issues[0]?.code).toBe('duplicate_id');
    expect(issues[0]?.message).toContain('earlier round');
  });
});

describe('validateExecutionPlan: rule 2, dependencies exist', () => {
  it('reports depends_on and $ref targets that exist nowhere', () => {
    const issues = validateExecutionPlan({
      batches: [parallel(call('a', { x: ref('ghost') }, ['phantom']))],
    });
    expect(issues.map((issue) => [issue.code, issue.callIds, issue.message])).toEqual([
      [
        'missing_dependency',
        ['a'],
        'Call "a" depends on "phantom", but no call with that id exists in this response or an earlier round.',
      ],
      [
        'missing_dependency',
        ['a'],
        'Call "a" references {"$ref": "ghost"}, but no call with that id exists in this response or an earlier round.',
      ],
    ]);
  });
});

describe('validateExecutionPlan: rule 3, no cycles', () => {
  it('names a cycle of length 1', () => {
    const issues = validateExecutionPlan({
      batches: [parallel(call('call_1', { x: ref('call_1') }))],
    });
    expect(issues).toEqual([
      {
        code: 'cycle',
        callIds: ['call_1'],
        message:
          'Call "call_1" depends on its own output (call_1 -> call_1); a call cannot reference itself.',
      },
    ]);
  });

  it('names the whole cycle of length 2', () => {
    const issues = validateExecutionPlan({
      batches: [
        parallel(
          call('call_1', { x: ref('call_3') }),
          call('call_2'),
          call('call_3', {}, ['call_1']),
        ),
      ],
    });
    expect(issues).toHaveLength(1);
    expect(issues[0]?.code).toBe('cycle');
    expect(issues[0]?.callIds).toEqual(['call_1', 'call_3']);
    expect(issues[0]?.message).toContain('call_1 -> call_3 -> call_1');
  });

  it('names the whole cycle of length 5, and only the cycle', () => {
    const ids = ['c1', 'c2', 'c3', 'c4', 'c5'];
    const calls = ids.map((id, index) => call(id, { x: ref(ids[(index + 1) % 5] as string) }));
    const issues = validateExecutionPlan({
      batches: [parallel(...calls, call('free', { y: ref('c3') }))],
    });
    expect(issues.map((issue) => issue.code)).toEqual(['cycle', 'ref_not_earlier']);
    expect(issues[0]?.message).toContain('c1 -> c2 -> c3 -> c4 -> c5 -> c1');
    expect(issues[0]?.callIds).toEqual(ids);
    expect(issues[1]?.callIds).toEqual(['free', 'c3']);
  });

  it('reports each separate cycle once', () => {
    const issues = validateExecutionPlan({
      batches: [
        parallel(
          call('a', { x: ref('b') }),
          call('b', { x: ref('a') }),
          call('c', { x: ref('d') }),
          call('d', {}, ['c']),
        ),
      ],
    });
    expect(issues.map((issue) => issue.message.match(/\w -> \w -> \w/)?.[0])).toEqual([
      'a -> b -> a',
      'c -> d -> c',
    ]);
  });
});

describe('validateExecutionPlan: rule 4, targets run earlier', () => {
  it('reports a reference to a call in the same parallel batch', () => {
    const issues = validateExecutionPlan({
      batches: [parallel(call('a'), call('b', { x: ref('a') }))],
    });
    expect(issues).toEqual([
      {
        code: 'ref_not_earlier',
        callIds: ['b', 'a'],
        location: 'batches[0].calls[1]',
        message:
          'Call "b" (batch 0) needs the output of "a", which runs at the same time, in the same parallel batch 0; a call may only use calls from earlier batches, or earlier in the same sequential batch.',
      },
    ]);
  });

  it('reports a reference to a later batch and to a later call of a sequential batch', () => {
    const issues = validateExecutionPlan({
      batches: [sequential(call('a', { x: ref('b') }), call('b', {}, ['c'])), parallel(call('c'))],
    });
    expect(issues.map((issue) => [issue.code, issue.callIds])).toEqual([
      ['ref_not_earlier', ['a', 'b']],
      ['ref_not_earlier', ['b', 'c']],
    ]);
    expect(issues[0]?.message).toContain('after it in the same sequential batch 0');
    expect(issues[1]?.message).toContain('in a later batch (1)');
  });
});

describe('validateExecutionPlan: strict mode', () => {
  it('requires every $ref target in depends_on', () => {
    const plan = {
      batches: [
        parallel(call('a'), call('h')),
        parallel(call('b', { x: ref('a'), y: ref('h') }, ['h'])),
      ],
    };
    expect(validateExecutionPlan(plan)).toEqual([]);
    const issues = validateExecutionPlan(plan, { strict: true });
    expect(issues.map((issue) => [issue.code, issue.callIds])).toEqual([
      ['undeclared_ref', ['b', 'a']],
    ]);
  });
});

describe('validateExecutionPlan: shapes from untrusted JSON', () => {
  it.each([
    [null, 'invalid_plan_shape'],
    [{}, 'invalid_plan_shape'],
    [{ batches: 'x' }, 'invalid_plan_shape'],
    [{ batches: [null] }, 'invalid_plan_shape'],
    [{ batches: [{ mode: 'parallel' }] }, 'invalid_plan_shape'],
    [{ batches: [{ mode: 'random', calls: [] }] }, 'unknown_batch_mode'],
    [{ batches: [parallel('call_1' as unknown as ToolCallInput)] }, 'invalid_call'],
    [{ batches: [parallel({ id: '', name: 'x' } as ToolCallInput)] }, 'empty_id'],
    [{ batches: [parallel({ id: 7, name: 'x' } as unknown as ToolCallInput)] }, 'empty_id'],
    [{ batches: [parallel({ id: 'a', name: '' } as ToolCallInput)] }, 'empty_name'],
    [
      {
        batches: [
          parallel({ id: 'a', name: 'x', arguments: '{"a":1}' } as unknown as ToolCallInput),
        ],
      },
      'invalid_call',
    ],
    [
      { batches: [parallel({ id: 'a', name: 'x', depends_on: 'b' } as unknown as ToolCallInput)] },
      'invalid_call',
    ],
    [{ batches: [parallel(call('a', { x: { $ref: 3 } }))] }, 'invalid_reference'],
    [{ batches: [parallel(call('a', { x: { $ref: 'b', $path: 'y' } }))] }, 'invalid_reference'],
  ])('reports %j as %s', (plan, code) => {
    expect(codes(plan)).toEqual([code]);
  });

  it('explains double-encoded arguments', () => {
    const [issue] = validateExecutionPlan({
      batches: [parallel({ id: 'a', name: 'x', arguments: '{"a":1}' } as unknown as ToolCallInput)],
    });
    expect(issue?.message).toBe(
      'Call "a" has "arguments" that are not an object: got string "{\\"a\\":1}" (send a JSON object, not JSON encoded in a string).',
    );
  });

  it('does not report dependents of a broken call as missing dependencies', () => {
    const plan = {
      batches: [
        parallel({ id: 'a', name: '' } as ToolCallInput),
        parallel(call('b', { x: ref('a') })),
      ],
    };
    expect(codes(plan)).toEqual(['empty_name']);
  });

  it('collects every issue rather than stopping at the first', () => {
    const plan = {
      batches: [
        parallel(call('a'), call('a'), call('b', { x: ref('nope') })),
        { mode: 'zigzag', calls: [] },
      ],
    };
    expect(codes(plan).sort()).toEqual([
      'duplicate_id',
      'missing_dependency',
      'unknown_batch_mode',
    ]);
  });
});

describe('assertValidPlan', () => {
  it('throws a PlanValidationError carrying the issues', () => {
    const plan = { batches: [parallel(call('a', { x: ref('a') }))] };
    let caught: unknown;
    try {
      assertValidPlan(plan);
    } catch (error) {
      caught = error;
    }
    expect(PlanValidationError.isInstance(caught)).toBe(true);
    const error = caught as PlanValidationError;
    expect(error.code).toBe('invalid_plan');
    expect(error.issues.map((issue) => issue.code)).toEqual(['cycle']);
    expect(error.message).toBe(
      'Invalid execution plan (1 problem): Call "a" depends on its own output (a -> a); a call cannot reference itself.',
    );
  });

  it('returns quietly for a valid plan', () => {
    expect(() => assertValidPlan({ batches: [parallel(call('a'))] })).not.toThrow();
  });
});
