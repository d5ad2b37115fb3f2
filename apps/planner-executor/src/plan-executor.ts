import { randomUUID } from 'node:crypto';
import { type AnyTool, createExecutor, type Executor, ToolExecutionError } from '@mtpx/executor';
import {
  type CallResult,
  type MplClient,
  MplError,
  type TaskPlanPayload,
  type ToolInvocationPayload,
  type ToolResultPayload,
} from '@mtpx/mpl';
import type { JsonObject, JsonValue, ToolResult } from '@mtpx/protocol';
import type { FailureStrategy } from './cli-options';
import type { ExecutorAgentEvent } from './executor-events';
import { analysePlan, type FailurePolicy, failurePolicyOf, reasoningFor } from './plan-reasoning';
import type { PlanStep, PlanTool } from './plan-tools';

/** What became of one step. */
export interface StepOutcome {
  stepId: number;
  tool: string;
  status: 'succeeded' | 'failed' | 'skipped' | 'not-run';
  attempts: number;
  output?: JsonValue;
  error?: string;
}

/** What became of a plan. */
export interface PlanOutcome {
  planId: string;
  /**
   * `completed`: every step succeeded; `partial`: the `skip` strategy left steps out;
   * `aborted`: a step failed under `abort` (or `retry` ran out); `rejected`: the plan
   * cannot run (its dependencies form a cycle).
   */
  status: 'completed' | 'partial' | 'aborted' | 'rejected';
  steps: StepOutcome[];
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

function asObject(value: JsonValue): JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as JsonObject)
    : { value };
}

/**
 * The tutorial's executor agent. For each plan it records its reasoning, then runs every
 * step as soon as the steps it depends on have succeeded: each attempt is a
 * `ToolInvocation` (the proxy validates the envelope and the args against `args_stype`),
 * the tool run by an MTPX executor, and a `ToolResult`. A failed step gets the plan's
 * failure strategy: `retry` (a new invocation, up to `maxRetries` times, for failures a
 * retry can fix), `skip` (the step and what needs it are left out) or `abort`.
 */
export class PlanExecutor {
  readonly #options: PlanExecutorOptions;
  readonly #tools: Map<string, PlanTool>;
  /** What each failing tool said about its failure, by call id (the result keeps only `error_code`). */
  readonly #toolFailures = new Map<string, { code: string; retryable: boolean }>();

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
      const stepOutcome = await this.#runAttempts(
        plan,
        step,
        policy,
        executor,
        planSignal,
        running,
      );
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
    // Keep each tool's own error code and whether it said a retry can help.
    const tools: AnyTool[] = this.#options.tools.map(({ tool }) => ({
      ...tool,
      execute: async (args: never, context) => {
        try {
          return await tool.execute(args, context);
        } catch (error) {
          this.#toolFailures.set(
            context.call.id,
            ToolExecutionError.isInstance(error)
              ? { code: error.code, retryable: error.retryable }
              : { code: 'tool_error', retryable: false },
          );
          throw error;
        }
      },
    }));
    return createExecutor({
      tools,
      ...(policy.timeoutSeconds ? { timeoutMs: policy.timeoutSeconds * 1000 } : {}),
    });
  }

  async #runAttempts(
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

    for (let attempt = 1; ; attempt += 1) {
      this.#options.onEvent({
        type: 'step-started',
        stepId: step.stepId,
        tool: step.tool,
        attempt,
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
      let failure: { message: string; retryable: boolean };
      if (accepted === undefined) {
        failure = { message: 'the proxy refused the invocation', retryable: false };
      } else {
        const { result, durationMs } = await this.#invoke(executor, invocation, signal);
        this.#options.onEvent({
          type: 'tool-finished',
          stepId: step.stepId,
          attempt,
          result,
          durationMs,
        });
        const toolFailure = this.#toolFailures.get(invocation.invocationId);
        const resultPayload = toResultPayload(
          invocation.invocationId,
          result,
          durationMs,
          toolFailure?.code,
        );
        const recorded = await this.#send(
          'agent.tool_result',
          STYPES.result,
          resultPayload,
          step.stepId,
          `status ${resultPayload.status}`,
        );
        if (recorded === undefined)
          failure = { message: 'the proxy refused the tool result', retryable: false };
        else if (result.success)
          return {
            stepId: step.stepId,
            tool: step.tool,
            status: 'succeeded',
            attempts: attempt,
            output: result.output,
          };
        else
          failure = {
            message: result.error ?? 'the tool failed',
            // A time limit may pass on a second try; otherwise the tool says.
            retryable:
              result.error_code === 'timeout' ||
              (result.error_code === 'tool_error' && toolFailure?.retryable === true),
          };
      }

      const canRetry =
        policy.strategy === 'retry' &&
        failure.retryable &&
        attempt < policy.maxAttempts &&
        !signal.aborted;
      const action = canRetry ? 'retry' : policy.strategy === 'skip' ? 'skip' : 'abort';
      this.#options.onEvent({
        type: 'strategy-applied',
        stepId: step.stepId,
        strategy: policy.strategy,
        action,
        attempt,
        maxAttempts: policy.maxAttempts,
        reason: failure.message,
      });
      if (action === 'retry') continue;
      return {
        stepId: step.stepId,
        tool: step.tool,
        status: action === 'skip' ? 'skipped' : 'failed',
        attempts: attempt,
        error: failure.message,
      };
    }
  }

  async #invoke(
    executor: Executor,
    invocation: ToolInvocationPayload,
    signal: AbortSignal,
  ): Promise<{ result: ToolResult; durationMs: number }> {
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
          if (event.type === 'call-finished') durationMs = event.durationMs;
        },
      },
    );
    return { result: result as ToolResult, durationMs };
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

/** An executor result as the tutorial's `org.agent.ToolResult.v1`. */
export function toResultPayload(
  invocationId: string,
  result: ToolResult,
  durationMs: number,
  toolCode?: string,
): ToolResultPayload {
  const payload: ToolResultPayload = {
    invocationId,
    status: result.success ? 'success' : result.error_code === 'timeout' ? 'timeout' : 'error',
    result: result.success ? asObject(result.output) : {},
    durationMs: Math.max(0, Math.round(durationMs)),
  };
  if (!result.success)
    payload.error = {
      code: errorCodeOf(result, toolCode),
      message: result.error ?? 'The tool failed.',
    };
  return payload;
}

/** `TOOL_TIMEOUT`, `TOOL_UNAVAILABLE`, `INVALID_ARGUMENTS`, …: the tutorial's upper-case codes. */
function errorCodeOf(result: ToolResult, toolCode: string | undefined): string {
  if (result.error_code === 'timeout') return 'TOOL_TIMEOUT';
  const code = (toolCode ?? result.error_code ?? 'tool_error').toUpperCase();
  return result.error_code === 'tool_error' && !code.startsWith('TOOL_') ? `TOOL_${code}` : code;
}
