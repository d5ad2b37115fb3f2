import { buildCallGraph, type CallSlot, type GraphNode, type PlanHistory } from './call-graph';
import type { ExecutionPlan } from './execution-plan';
import { describeValue } from './json';
import { PlanValidationError } from './plan-issue';
import type { ToolCall, ToolCallInput } from './tool-call';

/** Options of {@link planFromToolCalls}. */
export interface PlanFromToolCallsOptions {
  /** Ids of calls executed in earlier rounds; references to them are satisfied. */
  history?: PlanHistory;
  /** Also require every `$ref` target to be listed in the call's `depends_on`. */
  strict?: boolean;
  /** Stored as the plan's `metadata` (provider, model, round…). */
  metadata?: Record<string, unknown>;
}

/**
 * Turns the tool calls of one model response into an execution plan. Edges come from
 * `depends_on` and from `$ref`s anywhere in the arguments; each batch is one dependency
 * level (a call sits one level after its latest dependency), run in parallel. Calls
 * keep their response order inside a level, and each call's `depends_on` lists all its
 * edges (declared ones first, then `$ref` targets), so the plan is explicit.
 *
 * A call may reference any call of the same response, whatever their order, or a call
 * of an earlier round named in `history`. Problems throw one {@link PlanValidationError}
 * listing every issue with the call ids it concerns. Linear in calls + references.
 *
 * @example
 * ```ts source="./protocol.examples.ts#planFromToolCalls"
 * const plan = planFromToolCalls([
 *   { id: 'call_1', name: 'calculator.subtract', arguments: { a: 18, b: 6 } },
 *   { id: 'call_2', name: 'calculator.multiply', arguments: { a: 4, b: { $ref: 'call_1' } } },
 * ]);
 * plan.batches.map((batch) => batch.calls.map((call) => call.id)); // [['call_1'], ['call_2']]
 * ```
 */
export function planFromToolCalls(
  calls: readonly ToolCallInput[],
  options: PlanFromToolCallsOptions = {},
): ExecutionPlan {
  if (!Array.isArray(calls)) {
    throw new PlanValidationError({
      issues: [
        {
          code: 'invalid_plan_shape',
          callIds: [],
          message: `Tool calls must be a list, got ${describeValue(calls)}.`,
        },
      ],
    });
  }
  const slots: CallSlot[] = calls.map((value, index) => ({ value, location: `calls[${index}]` }));
  const graph = buildCallGraph(slots, options);
  if (graph.issues.length > 0) throw new PlanValidationError({ issues: graph.issues });

  const levels = dependencyLevels(graph.nodes);
  const batches: ExecutionPlan['batches'] = [];
  graph.nodes.forEach((node, index) => {
    const level = levels[index] as number;
    while (batches.length <= level) batches.push({ mode: 'parallel', calls: [] });
    (batches[level] as ExecutionPlan['batches'][number]).calls.push(explicitCall(node));
  });
  return { batches, metadata: { ...options.metadata } };
}

/** A call whose `depends_on` lists every edge: declared first, then `$ref` targets. */
function explicitCall(node: GraphNode): ToolCall {
  const call = node.call as ToolCall;
  const dependsOn = [...new Set([...call.depends_on, ...node.refTargets])];
  return { ...call, depends_on: dependsOn };
}

/** Each node's level: 0 without dependencies, else one past its latest dependency (Kahn). */
function dependencyLevels(nodes: readonly GraphNode[]): Int32Array {
  const levels = new Int32Array(nodes.length);
  const waitingOn = new Int32Array(nodes.length);
  const dependents: number[][] = nodes.map(() => []);
  nodes.forEach((node, index) => {
    waitingOn[index] = node.dependencies.length;
    for (const dependency of node.dependencies) (dependents[dependency] as number[]).push(index);
  });
  const ready: number[] = [];
  for (let index = 0; index < nodes.length; index++) if (waitingOn[index] === 0) ready.push(index);
  for (let head = 0; head < ready.length; head++) {
    const done = ready[head] as number;
    for (const dependent of dependents[done] as number[]) {
      levels[dependent] = Math.max(levels[dependent] as number, (levels[done] as number) + 1);
      waitingOn[dependent] = (waitingOn[dependent] as number) - 1;
      if (waitingOn[dependent] === 0) ready.push(dependent);
    }
  }
  return levels;
}
