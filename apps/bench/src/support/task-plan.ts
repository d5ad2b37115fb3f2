import { builtinSTypesDirectory, readSTypeDirectory } from '@mtpx/mpl';
import type { JsonObject } from '@mtpx/protocol';

/** The TaskPlan SType of the MPL tutorial. */
export const taskPlanStype = 'org.agent.TaskPlan.v1';

/** The TaskPlan schema and the tutorial's three-step example plan, as shipped with `@mtpx/mpl`. */
export async function loadTaskPlan(): Promise<{ schema: JsonObject; example: JsonObject }> {
  const definitions = await readSTypeDirectory(builtinSTypesDirectory());
  const definition = definitions.find((candidate) => candidate.id === taskPlanStype);
  const example = definition?.examples.find((sample) => sample.name.includes('competitor'));
  if (!definition || !example) throw new Error(`${taskPlanStype} or its example is missing`);
  return { schema: definition.schema, example: example.payload as JsonObject };
}

/** A valid TaskPlan of `stepCount` steps, each depending on the one before. */
export function largeTaskPlan(stepCount: number): JsonObject {
  return {
    planId: '550e8400-e29b-41d4-a716-446655440099',
    goal: 'Collect, check and summarize pricing for every competitor in the region',
    steps: Array.from({ length: stepCount }, (_, index) => ({
      stepId: index + 1,
      action: `Fetch and normalize the pricing page of competitor ${index + 1}`,
      tool: index % 2 === 0 ? 'web_search' : 'data_extract',
      ...(index > 0 ? { dependsOn: [index] } : {}),
      ...(index % 2 === 0 ? { args_stype: 'eval.rag.RAGQuery.v1' } : {}),
    })),
    constraints: { maxRetries: 2, timeoutSeconds: 120, failureStrategy: 'retry' },
  };
}
