import type { ExecutionPlanInput, ToolCallInput, ToolResult } from '@mtpx/protocol';
import { InMemoryResultCache, type ResultCache } from './cache/result-cache';
import { ArgumentValidator } from './call/argument-validator';
import { type RetryBackoff, resolveRetryBackoff } from './call/retry-backoff';
import { resolveValueLimits, type ValueLimits } from './call/value-limits';
import { ToolConcurrency, type ToolConcurrencyLimits } from './concurrency/tool-concurrency';
import { ExecutorError } from './errors';
import type { ExecutorEvent } from './events/events';
import type { ExecutorServices } from './executor-services';
import {
  type ApproveHandler,
  type RiskPolicyOptions,
  type ToolPolicy,
  toPolicy,
} from './policy/risk-policy';
import { Execution } from './run/plan-execution';
import type { PlanExecution, PlanExecutionOptions } from './run/plan-execution-types';
import { addPlan, layOutPlan, type Scheduling } from './run/plan-intake';
import { ToolRegistry } from './tools/tool-registry';
import type { AnyTool, Toolkit } from './tools/toolkit';

/** Options of {@link createExecutor}. */
export interface ExecutorOptions {
  /** The tools: a registry, or a list of tools and toolkits. */
  tools: ToolRegistry | ReadonlyArray<AnyTool | Toolkit>;
  /** A policy, or options for a {@link @mtpx/executor!RiskPolicy | RiskPolicy}. Default: read_only / write → allow, destructive → ask. */
  policy?: ToolPolicy | RiskPolicyOptions;
  /** Decides `ask`: resolve true to run the call. Without it, `ask` calls are skipped (`approval_required`). */
  approve?: ApproveHandler;
  /**
   * `eager` (default): a call starts as soon as the calls it depends on are done.
   * `batches`: a plan's batches run strictly one after another, as MTP specifies.
   * Plan executions fed call by call (`start`, `executeToolCalls`) are always eager.
   */
  scheduling?: Scheduling;
  /** Most calls in flight at once, per plan execution. Default: no cap. */
  concurrency?: number;
  /**
   * Caps per tool (`'db.write': 1`) or toolkit (`'browser.*': 2`), shared by every plan
   * execution of this executor, beside `concurrency`. A call over its cap waits for a
   * slot (`call-throttled`) without holding up calls of other tools; it holds its slot
   * from `call-started` to its result (an approval wait included).
   */
  toolConcurrency?: ToolConcurrencyLimits;
  /** Time limit of one attempt for tools without their own `timeoutMs`, in milliseconds. Default: none. */
  timeoutMs?: number;
  /** Where results of tools with `cache_ttl_seconds` are kept; `false` turns caching off. Default: an in-memory LRU of 1,000 entries. */
  cache?: ResultCache | false;
  /** Run identical calls (same tool, same resolved arguments) of one run once; the copies are flagged `cached`. Default true. */
  dedupe?: boolean;
  /** Waits between retries of retryable failures. */
  retryBackoff?: RetryBackoff;
  /**
   * Bounds on a call's arguments and a tool's output (depth 64, 4 MiB and 16 MiB by
   * default): a call past them is answered `invalid_arguments` and never runs, an output
   * past them becomes a `tool_error` result.
   */
  limits?: ValueLimits;
}

/** Options of `execute` and `stream`. */
export interface ExecuteOptions extends PlanExecutionOptions {
  /** Overrides the executor's `scheduling` for this plan. */
  scheduling?: Scheduling;
}

/** Runs tool calls. Made by {@link createExecutor}. */
export interface Executor {
  /** The tools it runs. */
  readonly registry: ToolRegistry;
  /** The bounds on arguments and outputs it applies (absent on executors made elsewhere). */
  readonly limits?: Readonly<Required<ValueLimits>>;
  /**
   * Runs a plan and resolves with one result per call, in plan order. Never rejects for a
   * model's mistake: an invalid plan, an unknown tool or bad arguments are error results
   * on the calls concerned, and the other calls still run.
   */
  execute(plan: ExecutionPlanInput, options?: ExecuteOptions): Promise<ToolResult[]>;
  /**
   * Runs the tool calls of one model response (possibly malformed, in any order: a call
   * may reference a later one) and resolves with one result per call, in the given order.
   */
  executeToolCalls(
    calls: readonly ToolCallInput[],
    options?: PlanExecutionOptions,
  ): Promise<ToolResult[]>;
  /**
   * Starts a plan execution fed call by call (a streamed response): `add` each call, then
   * `end`. Its options may hold calls until the response has finished (`hold`), answer
   * calls from a journal (`knownResult`) and record results as calls finish (`onResult`).
   *
   * @example
   * ```ts source="./executor.examples.ts#start"
   * const executor = createExecutor({ tools: [calculatorToolkit()] });
   * const execution = executor.start();
   * // Each call is added as the model finishes writing it; call_2 waits for call_1.
   * execution.add({
   *   id: 'call_2',
   *   name: 'calculator.multiply',
   *   arguments: { a: 4, b: { $ref: 'call_1' } },
   * });
   * execution.add({ id: 'call_1', name: 'calculator.subtract', arguments: { a: 18, b: 6 } });
   * execution.end();
   * const results = await execution.results; // [48, 12] as results, in add order
   * ```
   */
  start(options?: PlanExecutionOptions): PlanExecution;
  /** Runs a plan at once and yields its events; `plan-finished` carries the results. */
  stream(plan: ExecutionPlanInput, options?: ExecuteOptions): AsyncIterable<ExecutorEvent>;
}

/**
 * Makes an executor: the tools, and how their calls run — policy, approval, scheduling,
 * concurrency, time limits, cache, retries.
 *
 * @example
 * ```ts source="./executor.examples.ts#createExecutor"
 * const executor = createExecutor({ tools: [calculatorToolkit()] });
 * const results = await executor.executeToolCalls([
 *   { id: 'call_1', name: 'calculator.subtract', arguments: { a: 18, b: 6 } },
 *   { id: 'call_2', name: 'calculator.multiply', arguments: { a: 4, b: { $ref: 'call_1' } } },
 * ]);
 * results.map((result) => result.output); // [12, 48]
 * ```
 */
export function createExecutor(options: ExecutorOptions): Executor {
  const tools: unknown = options?.tools;
  if (!Array.isArray(tools) && typeof (tools as ToolRegistry | undefined)?.resolve !== 'function') {
    throw invalidOption('`tools` must be a ToolRegistry or a list of tools and toolkits.');
  }
  // Not `instanceof`: a registry from another copy of this package works as well.
  const registry = Array.isArray(options.tools)
    ? new ToolRegistry(options.tools)
    : (options.tools as ToolRegistry);
  const concurrency = options.concurrency ?? Number.POSITIVE_INFINITY;
  if (
    !(
      concurrency === Number.POSITIVE_INFINITY ||
      (Number.isInteger(concurrency) && concurrency >= 1)
    )
  ) {
    throw invalidOption(`concurrency must be a positive integer, got ${String(concurrency)}.`);
  }
  const timeoutMs = options.timeoutMs;
  if (timeoutMs !== undefined && !(Number.isFinite(timeoutMs) && timeoutMs > 0)) {
    throw invalidOption(
      `timeoutMs must be a positive number of milliseconds, got ${String(timeoutMs)}.`,
    );
  }
  const scheduling = options.scheduling ?? 'eager';
  checkScheduling(scheduling);
  const services: ExecutorServices = {
    registry,
    validator: new ArgumentValidator(),
    policy: toPolicy(options.policy),
    approve: options.approve,
    cache: options.cache === false ? undefined : (options.cache ?? new InMemoryResultCache()),
    dedupe: options.dedupe ?? true,
    concurrency,
    toolConcurrency:
      options.toolConcurrency === undefined
        ? undefined
        : new ToolConcurrency(options.toolConcurrency),
    timeoutMs,
    retryBackoff: resolveRetryBackoff(options.retryBackoff),
    limits: resolveValueLimits(options.limits),
  };

  const startPlan = (
    plan: ExecutionPlanInput,
    runOptions: ExecuteOptions,
    bufferEvents: boolean,
  ): Execution => {
    const planScheduling = runOptions.scheduling ?? scheduling;
    checkScheduling(planScheduling);
    const layout = layOutPlan(plan, runOptions.history);
    const run = new Execution(services, runOptions, {
      callCount: layout.slots.length,
      issues: layout.issues,
      bufferEvents,
    });
    addPlan(run, layout, planScheduling);
    run.end();
    return run;
  };

  return {
    registry,
    limits: services.limits,
    execute: (plan, runOptions = {}) => startPlan(plan, runOptions, false).results,
    executeToolCalls: (calls, runOptions = {}) => {
      if (!Array.isArray(calls)) {
        throw invalidOption(`executeToolCalls needs a list of tool calls, got ${typeof calls}.`);
      }
      const run = new Execution(services, runOptions, { callCount: calls.length });
      for (const call of calls) run.add(call);
      run.end();
      return run.results;
    },
    start: (runOptions = {}) => new Execution(services, runOptions),
    stream: (plan, runOptions = {}) => {
      const run = startPlan(plan, runOptions, true);
      // The results reach the caller through `plan-finished`; a throwing onEvent must not
      // surface as an unhandled rejection here.
      run.results.catch(() => {});
      return run.events;
    },
  };
}

function checkScheduling(scheduling: string): void {
  if (scheduling !== 'eager' && scheduling !== 'batches') {
    throw invalidOption(
      `scheduling must be "eager" or "batches", got ${JSON.stringify(scheduling)}.`,
    );
  }
}

function invalidOption(message: string): ExecutorError {
  return new ExecutorError({ code: 'invalid_option', message });
}
