import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { call, ref } from './__fixtures__/call-builders';
import { seedChainCalls, seedParallelCalls } from './__fixtures__/seed-calls';
import type { ExecutionPlan } from './execution-plan';
import { planFromToolCalls } from './plan-derivation';
import { PlanValidationError } from './plan-issue';
import { validateExecutionPlan } from './plan-validation';
import type { ToolCallInput } from './tool-call';

const ids = (plan: ExecutionPlan) =>
  plan.batches.map((batch) => batch.calls.map((call) => call.id));

function derivationIssues(calls: ToolCallInput[], options = {}) {
  try {
    planFromToolCalls(calls, options);
  } catch (error) {
    if (PlanValidationError.isInstance(error)) return error.issues;
    throw error;
  }
  return [];
}

describe('planFromToolCalls: the seed examples', () => {
  it('puts the two independent calls in one parallel batch', () => {
    const plan = planFromToolCalls(seedParallelCalls);
    expect(plan).toEqual({
      batches: [
        {
          mode: 'parallel',
          calls: [
            { id: 'call_1', name: 'calculator.add', arguments: { a: 15, b: 27 }, depends_on: [] },
            {
              id: 'call_2',
              name: 'file.read_file',
              arguments: { path: 'notes.txt' },
              depends_on: [],
            },
          ],
        },
      ],
      metadata: {},
    });
  });

  it('derives four levels from the four-call $ref chain, with every edge in depends_on', () => {
    const plan = planFromToolCalls(seedChainCalls, { metadata: { provider: 'openai' } });
    expect(ids(plan)).toEqual([['call_1'], ['call_2'], ['call_3'], ['call_4']]);
    expect(plan.batches.every((batch) => batch.mode === 'parallel')).toBe(true);
    expect(plan.batches.map((batch) => batch.calls[0]?.depends_on)).toEqual([
      [],
      ['call_1'],
      ['call_2'],
      ['call_3'],
    ]);
    expect(plan.metadata).toEqual({ provider: 'openai' });
    expect(validateExecutionPlan(plan, { strict: true })).toEqual([]);
  });

  it('does not modify the calls it is given', () => {
    const calls = structuredClone(seedChainCalls);
    planFromToolCalls(calls);
    expect(calls).toEqual(seedChainCalls);
  });
});

describe('planFromToolCalls: graphs', () => {
  it('derives a diamond: one root, two parallel branches, one join', () => {
    const plan = planFromToolCalls([
      call('join', { left: ref('left'), right: ref('right') }),
      call('left', { x: ref('root') }),
      call('root'),
      call('right', {}, ['root']),
    ]);
    expect(ids(plan)).toEqual([['root'], ['left', 'right'], ['join']]);
  });

  it('places a call one level after its latest dependency, not after the longest chain overall', () => {
    const plan = planFromToolCalls([
      call('a'),
      call('b', { x: ref('a') }),
      call('c', { x: ref('b') }),
      call('early', { x: ref('a') }),
      call('independent'),
    ]);
    expect(ids(plan)).toEqual([['a', 'independent'], ['b', 'early'], ['c']]);
  });

  it('finds references nested in arrays and objects, with $path', () => {
    const plan = planFromToolCalls([
      call('search'),
      call('fetch', {
        urls: [{ $ref: 'search', $path: '/results/0/url' }],
        options: { retry: { n: ref('cfg') } },
      }),
      call('cfg'),
    ]);
    expect(ids(plan)).toEqual([['search', 'cfg'], ['fetch']]);
    expect(plan.batches[1]?.calls[0]?.depends_on).toEqual(['search', 'cfg']);
  });

  it('treats references to history as satisfied and keeps them in depends_on', () => {
    const plan = planFromToolCalls(
      [call('call_5', { x: ref('call_1'), y: ref('call_4') }), call('call_4')],
      {
        history: ['call_1'],
      },
    );
    expect(ids(plan)).toEqual([['call_4'], ['call_5']]);
    expect(plan.batches[1]?.calls[0]?.depends_on).toEqual(['call_1', 'call_4']);
  });

  it('counts a call referenced twice once', () => {
    const plan = planFromToolCalls([call('a'), call('b', { x: ref('a'), y: ref('a') }, ['a'])]);
    expect(plan.batches[1]?.calls[0]?.depends_on).toEqual(['a']);
  });

  it('returns an empty plan for no calls', () => {
    expect(planFromToolCalls([])).toEqual({ batches: [], metadata: {} });
  });
});

describe('planFromToolCalls: problems throw one PlanValidationError with every issue', () => {
  it('reports cycles of length 1, 2 and 5 naming the whole cycle', () => {
    expect(derivationIssues([call('x', { v: ref('x') })])[0]?.message).toContain('x -> x');
    expect(
      derivationIssues([
        call('call_1', { v: ref('call_3') }),
        call('call_3', { v: ref('call_1') }),
      ])[0]?.message,
    ).toContain('call_1 -> call_3 -> call_1');
    const five = ['n1', 'n2', 'n3', 'n4', 'n5'];
    const issues = derivationIssues(
      five.map((id, index) => call(id, { v: ref(five[(index + 1) % 5] as string) })),
    );
    expect(issues).toHaveLength(1);
    expect(issues[0]?.message).toContain('n1 -> n2 -> n3 -> n4 -> n5 -> n1');
  });

  it('reports $refs to nowhere, duplicates and broken calls together', () => {
    const issues = derivationIssues([
      call('a', { v: ref('nowhere') }),
      call('a'),
      { id: 'c', name: 'x', arguments: 'oops' } as unknown as ToolCallInput,
    ]);
    expect(issues.map((issue) => [issue.code, issue.location])).toEqual([
      ['duplicate_id', 'calls[1]'],
      ['invalid_call', 'calls[2]'],
      ['missing_dependency', 'calls[0]'],
    ]);
  });

  it('refuses input that is not a list', () => {
    expect(
      derivationIssues('calls' as unknown as ToolCallInput[]).map((issue) => issue.code),
    ).toEqual(['invalid_plan_shape']);
  });

  it('applies strict mode when asked', () => {
    expect(
      derivationIssues([call('a'), call('b', { v: ref('a') })], { strict: true })[0]?.code,
    ).toBe('undeclared_ref');
  });
});

describe('planFromToolCalls: scale', () => {
  it('derives a 2,000-call chain (one level per call) without recursion limits', () => {
    const calls = Array.from({ length: 2000 }, (_, index) =>
      call(`c${index}`, index === 0 ? {} : { x: ref(`c${index - 1}`) }),
    );
    const plan = planFromToolCalls(calls.reverse());
    expect(plan.batches).toHaveLength(2000);
    expect(plan.batches[1999]?.calls[0]?.id).toBe('c1999');
  });

  it('reports a 20,000-call cycle without overflowing the stack', () => {
    const count = 20_000;
    const calls = Array.from({ length: count }, (_, index) =>
      call(`c${index}`, { x: ref(`c${(index + 1) % count}`) }),
    );
    const issues = derivationIssues(calls);
    expect(issues).toHaveLength(1);
    expect(issues[0]?.callIds).toHaveLength(count);
  });
});

/** A random DAG: each call references 0–3 uniformly chosen earlier calls, by $ref or depends_on. */
const dagArbitrary = fc
  .integer({ min: 1, max: 40 })
  .chain((size) =>
    fc.tuple(
      fc.constant(size),
      fc.array(
        fc.tuple(
          fc.array(fc.nat(), { maxLength: 3 }),
          fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
        ),
        { minLength: size, maxLength: size },
      ),
    ),
  )
  .map(([size, picks]) => {
    const calls: ToolCallInput[] = [];
    for (let index = 0; index < size; index++) {
      const [targets, viaRef] = picks[index] as [number[], boolean[]];
      const dependencies =
        index === 0 ? [] : [...new Set(targets.map((target) => `n${target % index}`))];
      const args: Record<string, unknown> = {};
      const dependsOn: string[] = [];
      dependencies.forEach((dependency, position) => {
        if (viaRef[position])
          args[`in${position}`] = position % 2 ? [ref(dependency)] : ref(dependency);
        else dependsOn.push(dependency);
      });
      calls.push(call(`n${index}`, args, dependsOn));
    }
    return calls;
  });

describe('planFromToolCalls: property over 1,000 random DAGs', () => {
  it('puts every call one level after its latest dependency, whatever the input order', () => {
    fc.assert(
      fc.property(dagArbitrary, fc.infiniteStream(fc.nat()), (calls, randomness) => {
        const plan = planFromToolCalls(calls);
        const levelOf = new Map<string, number>();
        plan.batches.forEach((batch, level) => {
          for (const planned of batch.calls) levelOf.set(planned.id, level);
        });
        expect(levelOf.size).toBe(calls.length);
        for (const batch of plan.batches) {
          for (const planned of batch.calls) {
            const dependencyLevels = planned.depends_on.map((id) => levelOf.get(id) as number);
            const level = levelOf.get(planned.id) as number;
            // every dependency sits in an earlier level, and the call is not later than it must be
            expect(dependencyLevels.every((dependencyLevel) => dependencyLevel < level)).toBe(true);
            expect(level).toBe(
              dependencyLevels.length === 0 ? 0 : Math.max(...dependencyLevels) + 1,
            );
          }
        }
        expect(validateExecutionPlan(plan, { strict: true })).toEqual([]);

        const shuffled = [...calls];
        const stream = randomness[Symbol.iterator]();
        for (let index = shuffled.length - 1; index > 0; index--) {
          const swap = (stream.next().value as number) % (index + 1);
          [shuffled[index], shuffled[swap]] = [
            shuffled[swap] as ToolCallInput,
            shuffled[index] as ToolCallInput,
          ];
        }
        const again = planFromToolCalls(shuffled);
        const asSets = (derived: ExecutionPlan) =>
          derived.batches.map((batch) => batch.calls.map((c) => c.id).sort());
        expect(asSets(again)).toEqual(asSets(plan));
      }),
      { numRuns: 1000 },
    );
    // 1,000 derivations take well under a second alone; CI runs every package at once on two cores.
  }, 60_000);
});
