import { randomUUID } from 'node:crypto';
import { CliError } from '@mtpx/example-kit';
import { type TaskPlanPayload, TaskPlanPayloadSchema } from '@mtpx/mpl';
import type { JsonSchemaObject, Provider, ToolSpec, Usage } from '@mtpx/protocol';
import { scriptedProvider } from '@mtpx/providers/testing';
import { z } from 'zod';
import type { PlanTool } from './plan-tools';
import type { PlanDraft } from './tutorial-plans';

/** The tool the planner model answers with: a TaskPlan without its id (the app assigns one). */
export const SUBMIT_PLAN_TOOL = 'submit_plan';

/** The planner's plan, before the proxy has judged it. */
export interface PlannerAnswer {
  plan: TaskPlanPayload;
  usage?: Usage | undefined;
}

/**
 * The offline planner: a scripted model whose one answer is a native `submit_plan` tool
 * call with `plan` as its arguments.
 */
export function scriptedPlanner(plan: PlanDraft): Provider {
  return scriptedProvider([
    { toolCalls: [{ id: 'call_plan', name: SUBMIT_PLAN_TOOL, arguments: plan }] },
  ]);
}

function submitPlanSpec(): ToolSpec {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(
    TaskPlanPayloadSchema.omit({ planId: true }),
  ) as JsonSchemaObject;
  return {
    name: SUBMIT_PLAN_TOOL,
    description:
      'Submit the task plan: the goal, its ordered steps (each runs one tool) and the constraints.',
    input_schema: schema,
    tags: [],
    risk_level: 'read_only',
  };
}

function instructions(tools: readonly PlanTool[]): string {
  const lines = tools.map(({ tool, argsStype }) => {
    const typed = argsStype ? ` (arguments: ${argsStype})` : '';
    return `- ${tool.name}${typed}: ${tool.description}`;
  });
  return [
    'You are the planner of a planner-executor pair. Decompose the goal into as few steps as',
    'it needs; the executor runs each step with exactly one of these tools:',
    ...lines,
    'Give each step a stepId (1, 2, …), an `action` saying what it does (for web_search, the',
    'action is the search query), `dependsOn` listing the steps whose output it needs, and',
    '`args_stype` when the tool lists one. Set constraints to',
    '{"maxRetries": 2, "timeoutSeconds": 30, "failureStrategy": "retry"} unless the goal says',
    `otherwise. Answer only by calling ${SUBMIT_PLAN_TOOL}, once.`,
  ].join('\n');
}

/**
 * Asks the planner model for a plan reaching `goal`: one native tool call to
 * `submit_plan` whose arguments are the plan. The app gives it a fresh `planId`; the
 * proxy judges the rest.
 */
export async function requestPlan(
  provider: Provider,
  tools: readonly PlanTool[],
  goal: string,
  signal?: AbortSignal,
): Promise<PlannerAnswer> {
  const turn = await provider.generate({
    messages: [
      { role: 'system', content: instructions(tools) },
      { role: 'user', content: goal },
    ],
    tools: [submitPlanSpec()],
    ...(signal ? { signal } : {}),
  });
  const call = turn.message.tool_calls?.find((candidate) => candidate.name === SUBMIT_PLAN_TOOL);
  if (call === undefined) {
    const said = typeof turn.message.content === 'string' ? turn.message.content.trim() : '';
    throw new CliError(
      `The planner answered without calling ${SUBMIT_PLAN_TOOL}${said ? `: "${said.slice(0, 200)}"` : '.'}`,
      { exitCode: 1 },
    );
  }
  if (call.arguments_error !== undefined)
    throw new CliError(`The planner's plan is not a JSON object: ${call.arguments_error}`, {
      exitCode: 1,
    });
  const { planId: _ignored, ...draft } = call.arguments;
  return { plan: { ...draft, planId: randomUUID() } as TaskPlanPayload, usage: turn.usage };
}
