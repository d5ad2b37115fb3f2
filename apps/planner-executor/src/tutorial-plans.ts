import type { TaskPlanPayload } from '@mtpx/mpl';

/** A task plan as the planner writes it: everything but the `planId` the app assigns. */
export type PlanDraft = Omit<TaskPlanPayload, 'planId'>;

/** The plans `--plan` picks from. */
export const PLAN_NAMES = ['search', 'research'] as const;

/** One of {@link PLAN_NAMES}. */
export type PlanName = (typeof PLAN_NAMES)[number];

/** Whether `name` is a plan `--plan` accepts. */
export function isPlanName(name: string): name is PlanName {
  return (PLAN_NAMES as readonly string[]).includes(name);
}

/** The tutorial's constraints: a transient failure is retried up to twice. */
const CONSTRAINTS: NonNullable<TaskPlanPayload['constraints']> = {
  maxRetries: 2,
  timeoutSeconds: 30,
  failureStrategy: 'retry',
};

/** The tutorial's first step, the one its invocation and result (Steps 3 and 4) show. */
const SEARCH_STEP: PlanDraft['steps'][number] = {
  stepId: 1,
  action: 'Search for competitor pricing data',
  tool: 'web_search',
  args_stype: 'eval.rag.RAGQuery.v1',
};

/**
 * The plans the scripted planner answers with. `search` (the default) is the tutorial's
 * web search alone, so its chain is the tutorial's four entries: TaskPlan → Reasoning →
 * ToolInvocation → ToolResult. `research` is the tutorial's whole three-step plan: two
 * entries more per step.
 */
export const TUTORIAL_PLANS: Readonly<Record<PlanName, PlanDraft>> = {
  search: {
    goal: 'Find competitor pricing data',
    steps: [SEARCH_STEP],
    constraints: CONSTRAINTS,
  },
  research: {
    goal: 'Research competitor pricing and create a summary report',
    steps: [
      SEARCH_STEP,
      {
        stepId: 2,
        action: 'Extract pricing information from results',
        tool: 'data_extract',
        dependsOn: [1],
      },
      {
        stepId: 3,
        action: 'Generate comparison report',
        tool: 'report_generate',
        dependsOn: [1, 2],
        args_stype: 'org.report.Summary.v1',
      },
    ],
    constraints: CONSTRAINTS,
  },
};
