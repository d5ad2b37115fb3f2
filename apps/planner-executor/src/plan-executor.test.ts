import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineTool, ToolExecutionError } from '@mtpx/executor';
import {
  MplClient,
  RAGQueryPayloadSchema,
  type TaskPlanPayload,
  ToolResultPayloadSchema,
} from '@mtpx/mpl';
import { type RunningProxy, startProxy } from '@mtpx/mpl-proxy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_STYPES_DIRECTORY } from './app';
import type { FailureStrategy } from './cli-options';
import type { ExecutorAgentEvent } from './executor-events';
import { PlanExecutor } from './plan-executor';
import { createPlanTools, type PlanTool } from './plan-tools';
import { TUTORIAL_PLANS } from './tutorial-plans';

let proxy: RunningProxy;
let dataDir: string;
let client: MplClient;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'planner-executor-unit-'));
  proxy = await startProxy({ port: 0, dataDir, stypes: [APP_STYPES_DIRECTORY] });
  client = new MplClient(proxy.url);
});
afterAll(async () => {
  await proxy.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** A `web_search` that always fails with `error`. */
function failingSearch(error: () => unknown): PlanTool {
  return {
    tool: defineTool({
      name: 'web_search',
      description: 'Always fails.',
      input_schema: RAGQueryPayloadSchema,
      execute: () => {
        throw error();
      },
    }),
    argsStype: 'eval.rag.RAGQuery.v1',
    buildArgs: ({ step }) => ({ query: step.action }),
  };
}

/** Sends the default (one-step) plan, runs it, and returns what happened and the chain. */
async function runSearchPlan(tools: readonly PlanTool[], strategy?: FailureStrategy) {
  const plan: TaskPlanPayload = { ...TUTORIAL_PLANS.search, planId: randomUUID() };
  await client.call('agent.plan', { payload: plan, stype: 'org.agent.TaskPlan.v1' });
  const events: ExecutorAgentEvent[] = [];
  const executor = new PlanExecutor({
    client,
    tools,
    profile: 'qom-strict-argcheck',
    strategy,
    onEvent: (event) => events.push(event),
  });
  const outcome = await executor.execute(plan);
  const { chain } = await client.provenance({ planId: plan.planId, payloads: true });
  return { outcome, events, chain, types: events.map((event) => event.type) };
}

describe('the executor agent’s failure strategies', () => {
  it('retry: a transient failure is retried within the one invocation, and one ToolResult records the outcome', async () => {
    const { outcome, events, chain } = await runSearchPlan(
      createPlanTools({ failOnce: 'web_search' }),
    );
    expect(outcome).toMatchObject({ status: 'completed', retries: 1 });
    expect(outcome.steps).toMatchObject([{ status: 'succeeded', attempts: 2 }]);
    expect(events.find((event) => event.type === 'tool-retried')).toMatchObject({
      stepId: 1,
      tool: 'web_search',
      attempt: 1,
      maxAttempts: 3,
      error: expect.stringContaining('503 Service Unavailable'),
    });
    const finished = events.find((event) => event.type === 'tool-finished');
    expect(finished).toMatchObject({ attempts: 2 });
    expect(chain.map((entry) => entry.stype)).toEqual([
      'org.agent.TaskPlan.v1',
      'ai.agent.Reasoning.v1',
      'org.agent.ToolInvocation.v1',
      'org.agent.ToolResult.v1',
    ]);
    const result = chain[3]?.payload;
    expect(result).toMatchObject({
      invocationId: chain[2]?.invocation_id,
      status: 'success',
      // The one duration covers both attempts and the wait between them.
      durationMs: Math.round(finished?.type === 'tool-finished' ? finished.durationMs : -1),
    });
    expect(result).not.toHaveProperty('error');
  });

  it('retry: a failure that stays after maxRetries aborts, and its ToolResult says how many attempts', async () => {
    const { outcome, events, chain, types } = await runSearchPlan([
      failingSearch(() => new ToolExecutionError({ message: 'Still down.', retryable: true })),
    ]);
    expect(outcome).toMatchObject({ status: 'aborted', retries: 2 });
    expect(types.filter((type) => type === 'tool-retried')).toHaveLength(2);
    expect(events.find((event) => event.type === 'strategy-applied')).toMatchObject({
      strategy: 'retry',
      action: 'abort',
      attempts: 3,
      maxAttempts: 3,
    });
    expect(chain).toHaveLength(4);
    const result = chain[3]?.payload;
    expect(ToolResultPayloadSchema.safeParse(result).success).toBe(true);
    expect(result).toMatchObject({
      status: 'error',
      result: {},
      error: { code: 'TOOL_ERROR', message: 'Still down.', attempts: 3 },
    });
  });

  it('retry: a failure the tool does not mark retryable is not retried', async () => {
    const { outcome, events, types } = await runSearchPlan([
      failingSearch(() => new ToolExecutionError({ code: 'quota_exceeded', message: 'No quota.' })),
    ]);
    expect(types).not.toContain('tool-retried');
    expect(outcome).toMatchObject({ status: 'aborted', retries: 0 });
    expect(events.find((event) => event.type === 'strategy-applied')).toMatchObject({
      action: 'abort',
      attempts: 1,
    });
  });

  it('skip: the tool runs once, the step is left out and the plan finishes', async () => {
    const { outcome, types, chain } = await runSearchPlan(
      createPlanTools({ failOnce: 'web_search' }),
      'skip',
    );
    expect(types).not.toContain('tool-retried');
    expect(outcome).toMatchObject({ status: 'partial', retries: 0 });
    expect(outcome.steps).toMatchObject([{ status: 'skipped', attempts: 1 }]);
    expect(chain[3]?.payload).toMatchObject({
      status: 'error',
      error: { code: 'TOOL_UNAVAILABLE' },
    });
  });

  it('abort: the tool runs once and the plan is aborted', async () => {
    const { outcome, types } = await runSearchPlan(
      createPlanTools({ failOnce: 'web_search' }),
      'abort',
    );
    expect(types).not.toContain('tool-retried');
    expect(outcome).toMatchObject({ status: 'aborted', retries: 0 });
    expect(outcome.reason).toContain('step 1 (web_search) failed');
  });
});
