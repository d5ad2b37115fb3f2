import { createExecutor } from '@mtpx/executor';
import { RAGResponsePayloadSchema } from '@mtpx/mpl';
import type { JsonValue, ToolResult } from '@mtpx/protocol';
import { describe, expect, it } from 'vitest';
import { createPlanTools, type PlanStep } from './plan-tools';
import { TUTORIAL_PLANS } from './tutorial-plans';

const RESEARCH_PLAN = TUTORIAL_PLANS.research;

function step(stepId: number): PlanStep {
  const found = RESEARCH_PLAN.steps.find((candidate) => candidate.stepId === stepId);
  if (!found) throw new Error(`no step ${stepId}`);
  return found;
}
const search = step(1);
const extract = step(2);
const report = step(3);

/** Runs plan steps as the executor agent does: arguments built from the inputs, one call each. */
function run(failOnce?: string) {
  const planTools = createPlanTools({ failOnce });
  const executor = createExecutor({ tools: planTools.map((planTool) => planTool.tool) });
  const byName = new Map(planTools.map((planTool) => [planTool.tool.name, planTool]));
  return async (planStep: PlanStep, inputs: JsonValue[]): Promise<ToolResult> => {
    const planTool = byName.get(planStep.tool);
    const args = planTool?.buildArgs({ goal: RESEARCH_PLAN.goal, step: planStep, inputs }) ?? {};
    const [result] = await executor.executeToolCalls([
      { id: `step-${planStep.stepId}`, name: planStep.tool, arguments: args },
    ]);
    if (!result) throw new Error('no result');
    return result;
  };
}

describe('the plan’s offline tools', () => {
  it('search, extract and report the tutorial’s competitor pricing', async () => {
    const runStep = run();
    const found = await runStep(search, []);
    expect(RAGResponsePayloadSchema.safeParse(found.output).success).toBe(true);
    expect(
      (found.output as { sources: { documentId: string }[] }).sources.map((s) => s.documentId),
    ).toEqual(['pricing-page-003', 'pricing-page-001', 'pricing-page-002']);
    const prices = await runStep(extract, [found.output]);
    expect((prices.output as { prices: unknown[] }).prices).toHaveLength(7);
    const summary = await runStep(report, [found.output, prices.output]);
    expect(summary.output).toMatchObject({
      vendorCount: 3,
      planCount: 7,
      lowest: { vendor: 'Beta Inc', plan: 'Starter', monthlyPrice: 29 },
      highest: { vendor: 'Beta Inc', plan: 'Enterprise', monthlyPrice: 199 },
    });
  });

  it('the flaky tool fails its first call only, with a retryable error', async () => {
    const runStep = run('web_search');
    const first = await runStep(search, []);
    expect(first).toMatchObject({ success: false, error_code: 'tool_error' });
    expect(first.error).toContain('503 Service Unavailable');
    expect((await runStep(search, [])).success).toBe(true);
  });

  it('data_extract without documents is an invalid-arguments result, not a crash', async () => {
    const result = await run()(extract, []);
    expect(result).toMatchObject({ success: false, error_code: 'invalid_arguments' });
  });
});
