import { buildCallGraph, type CallSlot, type GraphNode, type PlanHistory } from './call-graph';
import type { ExecutionPlanInput } from './execution-plan';
import { describeValue, isJsonObject } from './json';
import { type PlanIssue, PlanValidationError } from './plan-issue';

/** Options of {@link validateExecutionPlan}. */
export interface ValidatePlanOptions {
  /** Ids of calls executed in earlier rounds; references to them are satisfied. */
  history?: PlanHistory;
  /** Also require every `$ref` target to be listed in the call's `depends_on`. */
  strict?: boolean;
}

/**
 * Checks a plan against the MTP rules — unique ids, existing dependencies, no cycles,
 * every `$ref` / `depends_on` target running earlier — plus non-empty ids and names,
 * known batch modes, well-formed references and (with `strict`) declared references.
 * Runs in time linear in calls + references. Never throws: returns every issue found,
 * an empty list for a valid plan. The plan may come straight from untrusted JSON.
 *
 * @example
 * ```ts source="./protocol.examples.ts#validateExecutionPlan"
 * const issues = validateExecutionPlan({
 *   batches: [
 *     {
 *       mode: 'parallel',
 *       calls: [
 *         { id: 'call_1', name: 'calculator.add', arguments: { a: 1, b: { $ref: 'call_2' } } },
 *         { id: 'call_2', name: 'calculator.add', arguments: { a: 2, b: 3 } },
 *       ],
 *     },
 *   ],
 * });
 * issues[0]?.code; // 'ref_not_earlier': call_2 runs alongside call_1, not before it
 * ```
 */
export function validateExecutionPlan(
  plan: ExecutionPlanInput,
  options: ValidatePlanOptions = {},
): PlanIssue[] {
  const issues: PlanIssue[] = [];
  const slots: CallSlot[] = [];
  /** Per slot: its batch, its place in the batch, and whether the batch is sequential. */
  const placement: Array<{ batch: number; position: number; sequential: boolean }> = [];

  const batches: unknown = isJsonObject(plan) ? plan.batches : undefined;
  if (!Array.isArray(batches)) {
    issues.push({
      code: 'invalid_plan_shape',
      callIds: [],
      message: isJsonObject(plan)
        ? `A plan's "batches" must be a list of batches, got ${describeValue(batches)}.`
        : `A plan must be an object with a "batches" list, got ${describeValue(plan)}.`,
    });
    return issues;
  }
  batches.forEach((batch: unknown, batchIndex) => {
    const location = `batches[${batchIndex}]`;
    if (!isJsonObject(batch) || !Array.isArray(batch.calls)) {
      issues.push({
        code: 'invalid_plan_shape',
        callIds: [],
        location,
        message: `${location} must be an object with a "calls" list, got ${describeValue(isJsonObject(batch) ? batch.calls : batch)}.`,
      });
      return;
    }
    const mode = batch.mode ?? 'parallel';
    if (mode !== 'parallel' && mode !== 'sequential') {
      issues.push({
        code: 'unknown_batch_mode',
        callIds: [],
        location,
        message: `${location} has mode ${describeValue(mode)}; a batch's mode is "parallel" or "sequential".`,
      });
    }
    batch.calls.forEach((call, position) => {
      slots.push({ value: call, location: `${location}.calls[${position}]` });
      placement.push({ batch: batchIndex, position, sequential: mode === 'sequential' });
    });
  });

  const graph = buildCallGraph(slots, options);
  issues.push(...graph.issues);

  // Every edge must point to a call that runs earlier. Edges inside a cycle are reported
  // once, as the cycle.
  graph.nodes.forEach((node: GraphNode, nodeIndex) => {
    const here = placement[node.slot] as (typeof placement)[number];
    for (const target of node.dependencies) {
      const cycle = graph.cycleOf[nodeIndex] as number;
      if (cycle !== -1 && graph.cycleOf[target] === cycle) continue;
      const there = placement[
        (graph.nodes[target] as GraphNode).slot
      ] as (typeof placement)[number];
      const earlier =
        there.batch < here.batch ||
        (there.batch === here.batch && here.sequential && there.position < here.position);
      if (earlier) continue;
      const targetId = (graph.nodes[target] as GraphNode).id;
      let where = `in a later batch (${there.batch})`;
      if (there.batch === here.batch) {
        where = here.sequential
          ? `after it in the same sequential batch ${here.batch}`
          : `at the same time, in the same parallel batch ${here.batch}`;
      }
      issues.push({
        code: 'ref_not_earlier',
        callIds: [node.id, targetId],
        location: (slots[node.slot] as CallSlot).location,
        message: `Call "${node.id}" (batch ${here.batch}) needs the output of "${targetId}", which runs ${where}; a call may only use calls from earlier batches, or earlier in the same sequential batch.`,
      });
    }
  });
  return issues;
}

/**
 * Like {@link validateExecutionPlan}, but throws a {@link PlanValidationError} carrying
 * every issue when the plan is invalid.
 */
export function assertValidPlan(plan: ExecutionPlanInput, options: ValidatePlanOptions = {}): void {
  const issues = validateExecutionPlan(plan, options);
  if (issues.length > 0) throw new PlanValidationError({ issues });
}
