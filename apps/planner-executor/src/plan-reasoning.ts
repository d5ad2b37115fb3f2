import { randomUUID } from 'node:crypto';
import type { ReasoningPayload, TaskPlanPayload } from '@mtpx/mpl';
import { PlanValidationError, planFromToolCalls } from '@mtpx/protocol';
import type { FailureStrategy } from './cli-options';

/** The executor's reading of a plan: the order it will run the steps in, or why it cannot. */
export interface PlanAnalysis {
  /** Step ids by dependency level: each level's steps may run side by side. */
  levels: number[][];
  /** Why the plan cannot run (a cycle), when it cannot. */
  problem?: string;
}

/** The failure handling a plan asks for, with the defaults filled in. */
export interface FailurePolicy {
  strategy: FailureStrategy;
  /**
   * Attempts per step, all within the step's one invocation: 1, or 1 + maxRetries under
   * `retry` (the executor runs the tool again after a failure it marks retryable).
   */
  maxAttempts: number;
  timeoutSeconds: number | undefined;
}

const stepCallId = (stepId: number) => `step ${stepId}`;

/**
 * Orders a plan's steps by their `dependsOn` edges with the same graph rules MTP applies
 * to one model response's tool calls (`planFromToolCalls`): levels of independent steps,
 * and a cycle named in full when there is one.
 */
export function analysePlan(plan: TaskPlanPayload): PlanAnalysis {
  try {
    const derived = planFromToolCalls(
      plan.steps.map((step) => ({
        id: stepCallId(step.stepId),
        name: step.tool,
        arguments: {},
        depends_on: (step.dependsOn ?? []).map(stepCallId),
      })),
    );
    return {
      levels: derived.batches.map((batch) =>
        batch.calls.map((call) => Number(call.id.slice('step '.length))),
      ),
    };
  } catch (error) {
    if (!PlanValidationError.isInstance(error)) throw error;
    return { levels: [], problem: error.issues.map((issue) => issue.message).join(' ') };
  }
}

/** The plan's failure handling: `override` (from `--strategy`) wins over `constraints`. */
export function failurePolicyOf(
  plan: TaskPlanPayload,
  override: FailureStrategy | undefined,
): FailurePolicy {
  const strategy = override ?? plan.constraints?.failureStrategy ?? 'abort';
  const maxRetries = plan.constraints?.maxRetries ?? 2;
  return {
    strategy,
    maxAttempts: strategy === 'retry' ? 1 + maxRetries : 1,
    timeoutSeconds: plan.constraints?.timeoutSeconds,
  };
}

function list(ids: readonly number[]): string {
  if (ids.length <= 1) return ids.join('');
  return `${ids.slice(0, -1).join(', ')} and ${ids[ids.length - 1]}`;
}

function describeOrder(levels: readonly number[][]): string {
  const [first] = levels;
  if (levels.length === 1 && first?.length === 1) return `Execute step ${first[0]}.`;
  if (levels.every((level) => level.length === 1))
    return `Execute steps sequentially: ${levels.map((level) => level[0]).join(' -> ')}.`;
  return `Execute ${levels.map((level) => (level.length === 1 ? `step ${level[0]}` : `steps ${list(level)} in parallel`)).join(', then ')}.`;
}

function describeStrategy(policy: FailurePolicy): string {
  if (policy.strategy === 'retry')
    return `Use retry strategy on failure (up to ${policy.maxAttempts - 1} retries of a transient failure, within the step's invocation).`;
  if (policy.strategy === 'skip') return 'Skip a step that fails, and the steps that need it.';
  return 'Abort the plan if a step fails.';
}

/**
 * The executor's `ai.agent.Reasoning.v1` message about a plan, derived from its graph as
 * the tutorial's executor writes it: what depends on what, the order chosen, and the
 * alternative it rejected.
 */
export function reasoningFor(
  plan: TaskPlanPayload,
  analysis: PlanAnalysis,
  policy: FailurePolicy,
): ReasoningPayload {
  const base = { reasoningId: randomUUID(), planId: plan.planId };
  const count = `The plan has ${plan.steps.length} step${plan.steps.length === 1 ? '' : 's'}.`;
  if (analysis.problem !== undefined)
    return {
      ...base,
      thought: `${count} Its dependencies cannot be ordered: ${analysis.problem}`,
      conclusion: 'Reject the plan: no step order satisfies its dependencies.',
      confidence: 1,
    };

  const described = plan.steps.map((step) => {
    const needs = step.dependsOn ?? [];
    return needs.length === 0
      ? `Step ${step.stepId} (${step.tool}) has no dependencies and can start immediately.`
      : `Step ${step.stepId} (${step.tool}) needs step${needs.length === 1 ? '' : 's'} ${list(needs)}.`;
  });
  const order = describeOrder(analysis.levels);

  const alternatives: NonNullable<ReasoningPayload['alternatives']> = [];
  const levelOf = new Map(
    analysis.levels.flatMap((level, index) => level.map((id) => [id, index] as const)),
  );
  for (const step of plan.steps) {
    const blocker = (step.dependsOn ?? []).find(
      (id) => levelOf.get(id) === (levelOf.get(step.stepId) ?? 0) - 1,
    );
    if (blocker === undefined) continue;
    alternatives.push({
      option: `Parallelize steps ${blocker} and ${step.stepId}`,
      reason_rejected: `Step ${step.stepId} depends on step ${blocker}'s output`,
    });
    break;
  }
  return {
    ...base,
    thought: `${count} ${described.join(' ')}`,
    conclusion: `${order} ${describeStrategy(policy)}`,
    confidence: 0.95,
    ...(alternatives.length > 0 ? { alternatives } : {}),
  };
}
