import { ReasoningPayloadSchema, type TaskPlanPayload } from '@mtpx/mpl';
import { describe, expect, it } from 'vitest';
import { analysePlan, failurePolicyOf, reasoningFor } from './plan-reasoning';
import { TUTORIAL_PLANS } from './tutorial-plans';

const planId = '550e8400-e29b-41d4-a716-446655440010';

function plan(steps: TaskPlanPayload['steps'], constraints?: TaskPlanPayload['constraints']) {
  return { planId, goal: 'g', steps, ...(constraints ? { constraints } : {}) };
}

describe('the executor’s reasoning about a plan', () => {
  it('reads the tutorial’s plan as a chain and rejects parallelizing its dependent steps', () => {
    const tutorial = { planId, ...TUTORIAL_PLANS.research };
    const analysis = analysePlan(tutorial);
    expect(analysis).toEqual({ levels: [[1], [2], [3]] });
    const reasoning = reasoningFor(tutorial, analysis, failurePolicyOf(tutorial, undefined));
    expect(ReasoningPayloadSchema.safeParse(reasoning).success).toBe(true);
    expect(reasoning.conclusion).toBe(
      "Execute steps sequentially: 1 -> 2 -> 3. Use retry strategy on failure (up to 2 retries of a transient failure, within the step's invocation).",
    );
    expect(reasoning.alternatives).toEqual([
      { option: 'Parallelize steps 1 and 2', reason_rejected: "Step 2 depends on step 1's output" },
    ]);
  });

  it('reads the default plan as its one step', () => {
    const search = { planId, ...TUTORIAL_PLANS.search };
    const analysis = analysePlan(search);
    const reasoning = reasoningFor(search, analysis, failurePolicyOf(search, undefined));
    expect(ReasoningPayloadSchema.safeParse(reasoning).success).toBe(true);
    expect(reasoning.thought).toBe(
      'The plan has 1 step. Step 1 (web_search) has no dependencies and can start immediately.',
    );
    expect(reasoning.conclusion).toMatch(/^Execute step 1\. Use retry strategy on failure/);
    expect(reasoning).not.toHaveProperty('alternatives');
  });

  it('runs independent steps side by side', () => {
    const fanIn = plan([
      { stepId: 1, action: 'a', tool: 'web_search' },
      { stepId: 2, action: 'b', tool: 'web_search' },
      { stepId: 3, action: 'c', tool: 'data_extract', dependsOn: [1, 2] },
    ]);
    const analysis = analysePlan(fanIn);
    expect(analysis.levels).toEqual([[1, 2], [3]]);
    expect(reasoningFor(fanIn, analysis, failurePolicyOf(fanIn, undefined)).conclusion).toBe(
      'Execute steps 1 and 2 in parallel, then step 3. Abort the plan if a step fails.',
    );
  });

  it('names a dependency cycle and concludes the plan cannot run', () => {
    const cyclic = plan([
      { stepId: 1, action: 'a', tool: 'web_search', dependsOn: [2] },
      { stepId: 2, action: 'b', tool: 'data_extract', dependsOn: [1] },
    ]);
    const analysis = analysePlan(cyclic);
    expect(analysis.problem).toContain('step 1 -> step 2 -> step 1');
    const reasoning = reasoningFor(cyclic, analysis, failurePolicyOf(cyclic, undefined));
    expect(reasoning.conclusion).toBe('Reject the plan: no step order satisfies its dependencies.');
  });

  it('fills in the failure policy: abort by default, retry with maxRetries, --strategy wins', () => {
    expect(failurePolicyOf(plan([]), undefined)).toEqual({
      strategy: 'abort',
      maxAttempts: 1,
      timeoutSeconds: undefined,
    });
    const retrying = plan([], { failureStrategy: 'retry', maxRetries: 4, timeoutSeconds: 5 });
    expect(failurePolicyOf(retrying, undefined)).toEqual({
      strategy: 'retry',
      maxAttempts: 5,
      timeoutSeconds: 5,
    });
    expect(failurePolicyOf(retrying, 'skip').strategy).toBe('skip');
  });
});
