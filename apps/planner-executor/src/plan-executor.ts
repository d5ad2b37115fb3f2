import { randomUUID } from 'node:crypto';
import { type AnyTool, createExecutor, type Executor, ToolExecutionError } from '@mtpx/executor';
import {
  type CallResult,
  type MplClient,
  MplError,
  type TaskPlanPayload,
  type ToolInvocationPayload,
} from '@mtpx/mpl';
import type { JsonObject, JsonValue, ToolResult } from '@mtpx/protocol';
import type { FailureStrategy } from './cli-options';
import type { ExecutorAgentEvent } from './executor-events';
import { analysePlan, type FailurePolicy, failurePolicyOf, reasoningFor } from './plan-reasoning';
import type { PlanStep, PlanTool } from './plan-tools';
import { type ToolRun, toResultPayload } from './tool-result-payload';

/** What became of one step. */
export interface StepOutcome {
  stepId: number;
  tool: string;
  status: 'succeeded' | 'failed' | 'skipped' | 'not-run';
  /** How many times the tool ran, all within the step's one invocation. */
  attempts: number;
  output?: JsonValue;
  error?: string;
}

/** What became of a plan. */
export interface PlanOutcome {
  planId: string;
  /**
   * `completed`: every step succeeded; `partial`: the `skip` strategy left steps out;
   * `aborted`: a step failed under `abort` (or under `retry`, with no retry left or a
   * failure no retry can fix); `rejected`: the plan cannot run (its dependencies form a cycle).
   */
  status: 'completed' | 'partial' | 'aborted' | 'rejected';
  steps: StepOutcome[];
  /** Tool runs after a first failed attempt, over all steps. */
  retries: number;
  reason?: string;
}

/** How the executor agent works. */
export interface PlanExecutorOptions {
  client: MplClient;
  tools: readonly PlanTool[];
  /** The QoM profile every message is judged by (the tutorial's `qom-strict-argcheck`). */
  profile: string;
  /** Overrides each plan's `failureStrategy`. */
  strategy?: FailureStrategy | undefined;
  onEvent: (event: ExecutorAgentEvent) => void;
}

const STYPES = {
  reasoning: 'ai.agent.Reasoning.v1',
  invocation: 'org.agent.ToolInvocation.v1',
  result: 'org.agent.ToolResult.v1',
} as const;

/**
 * The tutorial's executor agent. For each plan it records its reasoning, then runs every
 * step as soon as the steps it depends on have succeeded: one `ToolInvocation` (the proxy
 * validates the envelope and the args against `args_stype`), the tool run by an MTPX
 * executor, and one `ToolResult` with the final outcome. The plan's failure strategy:
 * `retry` lets the executor run the tool again, up to `maxRetries` times within that
 * invocation, after a failure the tool marks retryable; a failure that remains (or any
 * failure under `abort`) aborts the plan; `skip` leaves the step and what needs it out.
 */
export class PlanExecutor {
  readonly #options: PlanExecutorOptions;
  readonly #tools: Map<string, PlanTool>;
  /** What the tool did in each invocation in flight, by call id (the invocation's id). */
  readonly #toolRuns = new Map<string, ToolRun>();

  constructor(options: PlanExecutorOptions) {
    this.#options = options;
    this.#tools = new Map(options.tools.map((planTool) => [planTool.tool.name, planTool]));
  }

  /** Runs a plan to its end; never throws for a step's failure (the outcome says). */
  async execute(plan: TaskPlanPayload, signal?: AbortSignal): Promise<PlanOutcome> {
    const analysis = analysePlan(plan);
    const policy = failurePolicyOf(plan, this.#options.strategy);
    const reasoning = reasoningFor(plan, analysis, policy);
    this.#options.onEvent({ type: 'reasoning-decided', reasoning });
    const recorded = await this.#send('agent.reason', STYPES.reasoning, reasoning);
    const outcome: PlanOutcome = {
      planId: plan.planId,
      status: 'completed',
      steps: [],
      retries: 0,
    };
    if (analysis.problem !== undefined || recorded === undefined) {
      outcome.status = 'rejected';
      outcome.reason = analysis.problem ?? 'the proxy refused the executor’s reasoning';
      return outcome;
    }

    const executor = this.#createExecutor(policy);
    const abort = new AbortController();
    const planSignal = signal ? AbortSignal.any([signal, abort.signal]) : abort.signal;
    const running = new Map<number, Promise<StepOutcome>>();
    const runStep = async (step: PlanStep): Promise<StepOutcome> => {
      for (const needed of step.dependsOn ?? []) {
        const dependency = await (running.get(needed) as Promise<StepOutcome>);
        if (dependency.status !== 'succeeded')
          return this.#notRun(step, `it needs step ${needed}, which ${describe(dependency)}`);
      }
      if (planSignal.aborted) return this.#notRun(step, 'the plan was aborted');
      const stepOutcome = await this.#invokeStep(plan, step, policy, executor, planSignal, running);
      outcome.retries += Math.max(0, stepOutcome.attempts - 1);
      if (stepOutcome.status === 'failed' && policy.strategy !== 'skip') {
        outcome.status = 'aborted';
        outcome.reason ??= `step ${step.stepId} (${step.tool}) failed: ${stepOutcome.error}`;
        abort.abort(new Error(outcome.reason));
      }
      return stepOutcome;
    };
    // Levels only order the start; each step still waits for exactly the steps it needs.
    for (const level of analysis.levels)
      for (const stepId of level) {
        const step = plan.steps.find((candidate) => candidate.stepId === stepId) as PlanStep;
        running.set(stepId, runStep(step));
      }
    for (const step of plan.steps)
      outcome.steps.push(await (running.get(step.stepId) as Promise<StepOutcome>));
    if (outcome.status === 'completed' && outcome.steps.some((step) => step.status !== 'succeeded'))
      outcome.status = 'partial';
    return outcome;
  }

  #createExecutor(policy: FailurePolicy): Executor {
    // The plan's retry budget becomes every tool's own `retries`: the MTPX executor runs a
    // tool again after a failure it marks retryable, within the one invocation. The wrapper
    // counts the runs and keeps the tool's own error code (the result keeps only `error_code`).
    const tools: AnyTool[] = this.#options.tools.map(({ tool }) => ({
      ...tool,
      retries: policy.maxAttempts - 1,
      execute: async (args: never, context) => {
        const run: ToolRun = { attempts: context.attempt };
        this.#toolRuns.set(context.call.id, run);
        try {
          return await tool.execute(args, context);
        } catch (error) {
          run.failureCode = ToolExecutionError.isInstance(error) ? error.code : 'tool_error';
          throw error;
        }
      },
    }));
    return createExecutor({
      tools,
      ...(policy.timeoutSeconds ? { timeoutMs: policy.timeoutSeconds * 1000 } : {}),
    });
  }

  /**
   * One step: one ToolInvocation, the tool run by the executor (with its retries), one
   * ToolResult with the final outcome. A failure that remains gets `skip` or `abort`.
   */
  async #invokeStep(
    plan: TaskPlanPayload,
    step: PlanStep,
    policy: FailurePolicy,
    executor: Executor,
    signal: AbortSignal,
    running: ReadonlyMap<number, Promise<StepOutcome>>,
  ): Promise<StepOutcome> {
    const inputs: JsonValue[] = [];
    for (const needed of step.dependsOn ?? [])
      inputs.push((await (running.get(needed) as Promise<StepOutcome>)).output ?? null);
    const planTool = this.#tools.get(step.tool);
    const args = planTool?.buildArgs({ goal: plan.goal, step, inputs }) ?? {};
    const argsStype = step.args_stype ?? planTool?.argsStype;

    this.#options.onEvent({
      type: 'step-started',
      stepId: step.stepId,
      tool: step.tool,
      maxAttempts: policy.maxAttempts,
    });
    const invocation: ToolInvocationPayload = {
      invocationId: randomUUID(),
      planId: plan.planId,
      stepId: step.stepId,
      tool: step.tool,
      args: args as Record<string, unknown>,
      ...(argsStype ? { args_stype: argsStype } : {}),
    };
    const accepted = await this.#send(
      'agent.invoke_tool',
      STYPES.invocation,
      invocation,
      step.stepId,
      argsStype ? `args valid against ${argsStype}` : 'args untyped',
    );
    if (accepted === undefined)
      return this.#applyStrategy(step, policy, 0, 'the proxy refused the invocation');

    const { result, durationMs, run } = await this.#runTool(
      executor,
      invocation,
      policy.maxAttempts,
      signal,
    );
    this.#options.onEvent({
      type: 'tool-finished',
      stepId: step.stepId,
      result,
      attempts: run.attempts,
      durationMs,
    });
    const resultPayload = toResultPayload(invocation.invocationId, result, { durationMs, ...run });
    const recorded = await this.#send(
      'agent.tool_result',
      STYPES.result,
      resultPayload,
      step.stepId,
      run.attempts > 1
        ? `status ${resultPayload.status} · durationMs ${resultPayload.durationMs} covers ${run.attempts} attempts`
        : `status ${resultPayload.status}`,
    );
    if (recorded === undefined)
      return this.#applyStrategy(step, policy, run.attempts, 'the proxy refused the tool result');
    if (!result.success)
      return this.#applyStrategy(step, policy, run.attempts, result.error ?? 'the tool failed');
    return {
      stepId: step.stepId,
      tool: step.tool,
      status: 'succeeded',
      attempts: run.attempts,
      output: result.output,
    };
  }

  /** A failure that remains: `skip` leaves the step out, `abort` and a spent `retry` fail it. */
  #applyStrategy(
    step: PlanStep,
    policy: FailurePolicy,
    attempts: number,
    reason: string,
  ): StepOutcome {
    const action = policy.strategy === 'skip' ? 'skip' : 'abort';
    this.#options.onEvent({
      type: 'strategy-applied',
      stepId: step.stepId,
      strategy: policy.strategy,
      action,
      attempts,
      maxAttempts: policy.maxAttempts,
      reason,
    });
    return {
      stepId: step.stepId,
      tool: step.tool,
      status: action === 'skip' ? 'skipped' : 'failed',
      attempts,
      error: reason,
    };
  }

  /** Runs the invocation's tool call; each retry the executor makes is reported as it happens. */
  async #runTool(
    executor: Executor,
    invocation: ToolInvocationPayload,
    maxAttempts: number,
    signal: AbortSignal,
  ): Promise<{ result: ToolResult; durationMs: number; run: ToolRun }> {
    let durationMs = 0;
    const [result] = await executor.executeToolCalls(
      [
        {
          id: invocation.invocationId,
          name: invocation.tool,
          arguments: invocation.args as JsonObject,
        },
      ],
      {
        signal,
        onEvent: (event) => {
          if (event.type === 'call-retried')
            this.#options.onEvent({
              type: 'tool-retried',
              stepId: invocation.stepId,
              tool: invocation.tool,
              attempt: event.attempt,
              maxAttempts,
              delayMs: event.delayMs,
              error: event.error,
            });
          else if (event.type === 'call-finished') durationMs = event.durationMs;
        },
      },
    );
    // No run when the tool never started (its arguments were invalid, or the plan was cancelled).
    const run = this.#toolRuns.get(invocation.invocationId) ?? { attempts: 0 };
    this.#toolRuns.delete(invocation.invocationId);
    return { result: result as ToolResult, durationMs, run };
  }

  #notRun(step: PlanStep, reason: string): StepOutcome {
    this.#options.onEvent({ type: 'step-not-run', stepId: step.stepId, tool: step.tool, reason });
    return { stepId: step.stepId, tool: step.tool, status: 'not-run', attempts: 0, error: reason };
  }

  /** Sends one typed message; `undefined` (and a `message-refused` event) when refused. */
  async #send(
    method: string,
    stype: string,
    payload: object,
    stepId?: number,
    note?: string,
  ): Promise<CallResult | undefined> {
    const where = stepId === undefined ? {} : { stepId };
    try {
      const call = await this.#options.client.call(method, {
        payload,
        stype,
        profile: this.#options.profile,
      });
      this.#options.onEvent({
        type: 'message-recorded',
        method,
        stype,
        call,
        ...where,
        ...(note ? { note } : {}),
      });
      return call;
    } catch (error) {
      if (!MplError.isInstance(error)) throw error;
      this.#options.onEvent({ type: 'message-refused', method, stype, error, ...where });
      return undefined;
    }
  }
}

function describe(outcome: StepOutcome): string {
  if (outcome.status === 'skipped') return 'was skipped';
  if (outcome.status === 'not-run') return 'did not run';
  return 'failed';
}
