import {
  type AnyTool,
  defineTool,
  type Tool,
  ToolExecutionError,
  type Toolkit,
} from '@mtpx/executor';
import { type JsonObject, type ToolSpec, toolOutput } from '@mtpx/protocol';
import { CallDispatcher } from './call-dispatcher';
import { DeadlineList } from './deadline-list';
import { RemoteToolError } from './errors';
import { invalid, type QueueLocation, resolveLocation } from './queue-names';
import { type CallJobResult, jobIdOf } from './wire';

/** A tool the orchestrator knows only by its spec (the implementation lives on the workers). */
export type RemoteToolSpec = ToolSpec & {
  /** Retries after a retryable failure, carried out by BullMQ (on any worker). */
  readonly retries?: number;
};

/** Options of {@link createRemoteTools}. */
export interface RemoteToolsOptions extends QueueLocation {
  /**
   * The tools whose calls go to the workers: the same `defineTool` definitions the
   * workers run (only their specs and `retries` are used here), or bare specs.
   */
  tools: ReadonlyArray<AnyTool | RemoteToolSpec>;
  /** How long finished jobs (and cancellation marks) stay in Redis, in seconds. Default 86,400. */
  keepFinishedSeconds?: number;
  /**
   * Every remote call ends within this many milliseconds of its dispatch: queueing, every
   * attempt on the workers and the answer's way back count. Past it, the call's job is
   * cancelled and the call fails with `timeout` (retryable; a `deadline-exceeded`
   * `call-progress` event says why). Default 600,000 (10 minutes). Keep it above
   * `(1 + retries) × the tool's time limit` plus the queueing you expect.
   */
  callDeadlineMs?: number;
  /** Deadlines of single tools, by tool name, in place of `callDeadlineMs`. */
  deadlines?: Readonly<Record<string, number>>;
  /**
   * How often the jobs of waiting calls are looked for in Redis, in milliseconds (one
   * pipelined round trip for all of them), and at once whenever a lost connection to Redis
   * returns. A call whose job is gone — lost with Redis's data — fails then with
   * `job_lost` (retryable), never a success. Default 5,000.
   */
  lostCheckMs?: number;
}

/** Remote stand-ins for tools, made by {@link createRemoteTools}. */
export interface RemoteTools {
  /** One executor tool per given tool, same name and spec; its `execute` enqueues a job. */
  readonly tools: readonly AnyTool[];
  /** The tools as a toolkit named `name` (every tool name must start with `name.`). */
  toolkit(name: string, description?: string): Toolkit;
  /** Connects to Redis now (otherwise the first call does). */
  ready(): Promise<void>;
  /** Closes the connections; calls still waiting fail with `closed`. */
  close(): Promise<void>;
}

/**
 * Makes remote stand-ins for tools: give them to an executor (or agent) like any tools.
 * The executor still decides when a call runs (eagerly, the moment its inputs exist); its
 * `execute` only carries the call — resolved arguments and idempotency key — to a BullMQ
 * worker ({@link startToolWorker}) and the answer back. One job per call: the job id comes
 * from the run id and call id, so a call is never enqueued twice. Progress comes back as
 * `call-progress` events; aborting the run removes waiting jobs and signals running ones.
 * Retries are BullMQ's (the tool's `retries`), never stacked with the executor's.
 *
 * @example
 * ```ts source="./remote-tools.examples.ts#createRemoteTools"
 * const remote = createRemoteTools({
 *   connection: { host: '127.0.0.1', port: 6379 },
 *   tools: [search],
 * });
 * const executor = createExecutor({ tools: remote.tools });
 * await executor.executeToolCalls(calls, { runId: 'run_1' });
 * await remote.close();
 * ```
 */
export function createRemoteTools(options: RemoteToolsOptions): RemoteTools {
  const location = resolveLocation(options);
  const keepSeconds = options.keepFinishedSeconds ?? 86_400;
  if (!(Number.isInteger(keepSeconds) && keepSeconds > 0)) {
    throw invalid(`keepFinishedSeconds must be a positive integer, got ${String(keepSeconds)}.`);
  }
  if (!Array.isArray(options.tools) || options.tools.length === 0) {
    throw invalid('`tools` must list at least one tool (or tool spec).');
  }
  const callDeadlineMs = options.callDeadlineMs ?? 600_000;
  checkMilliseconds('callDeadlineMs', callDeadlineMs);
  const lostCheckMs = options.lostCheckMs ?? 5_000;
  checkMilliseconds('lostCheckMs', lostCheckMs);
  const deadlines = options.deadlines ?? {};
  const names = new Set(options.tools.map((tool) => tool.name));
  for (const [name, ms] of Object.entries(deadlines)) {
    checkMilliseconds(`deadlines["${name}"]`, ms);
    if (!names.has(name))
      throw invalid(`deadlines names "${name}", which is not one of the tools.`);
  }
  const dispatcher = new CallDispatcher(location, { keepSeconds, lostCheckMs });
  const tools = options.tools.map((tool) =>
    remoteTool(
      tool,
      dispatcher,
      (Object.hasOwn(deadlines, tool.name) ? deadlines[tool.name] : undefined) ?? callDeadlineMs,
    ),
  );
  return {
    tools,
    toolkit: (name, description) => ({
      name,
      ...(description === undefined ? {} : { description }),
      load: () => tools,
    }),
    ready: () => dispatcher.ready(),
    close: () => dispatcher.close(),
  };
}

/** Node's timers take at most 2^31 − 1 ms (about 24.8 days); a longer one would fire at once. */
const longestTimerMs = 2_147_483_647;

function checkMilliseconds(name: string, value: unknown): void {
  if (!(Number.isInteger(value) && (value as number) >= 1 && (value as number) <= longestTimerMs)) {
    throw invalid(
      `${name} must be a whole number of milliseconds from 1 to ${longestTimerMs}, got ${String(value)}.`,
    );
  }
}

function remoteTool(
  spec: AnyTool | RemoteToolSpec,
  dispatcher: CallDispatcher,
  deadlineMs: number,
): AnyTool {
  const retries = spec.retries ?? 0;
  if (!(Number.isInteger(retries) && retries >= 0)) {
    throw invalid(`Tool "${spec.name}": retries must be a non-negative integer.`);
  }
  // One deadline list for every call of the tool (one timer, not one per call).
  const deadlines = new DeadlineList(deadlineMs);
  // The JSON Schema only (no zod schema): the orchestrator checks the arguments and sends
  // them as JSON; the worker parses them with the tool's own schema.
  const tool: Tool<JsonObject> = defineTool({
    name: spec.name,
    description: spec.description,
    input_schema: spec.input_schema,
    ...(spec.risk_level === undefined ? {} : { risk_level: spec.risk_level }),
    ...(spec.tags === undefined ? {} : { tags: spec.tags }),
    ...(spec.cost_hint === undefined ? {} : { cost_hint: spec.cost_hint }),
    ...(spec.side_effects === undefined ? {} : { side_effects: spec.side_effects }),
    ...(spec.cache_ttl_seconds === undefined ? {} : { cache_ttl_seconds: spec.cache_ttl_seconds }),
    // No `async`: the dispatch's promise, mapped once (a remote hop is on every call's path).
    execute: (args, context) =>
      dispatcher
        .dispatch(
          jobIdOf(context.runId, context.call.id),
          {
            tool: spec.name,
            callId: context.call.id,
            runId: context.runId ?? null,
            args,
          },
          { attempts: 1 + retries, context, deadlines },
        )
        .then(outputOf, asToolError),
  });
  return tool as AnyTool;
}

/** A worker's answer as the tool's output (or its failure as the tool's error). */
function outputOf(result: CallJobResult): unknown {
  if (!result.ok) throw new ToolExecutionError({ code: result.code, message: result.message });
  if (result.media === undefined) return result.content;
  return toolOutput({ content: result.content as never, ...result.media });
}

/**
 * A retryable remote failure becomes the call's retryable error: a deadline as `timeout`,
 * a lost job or an unreachable Redis under its own code (`job_lost`, `redis_unavailable`,
 * kept on the error; the result's `error_code` is then `tool_error`).
 */
function asToolError(error: unknown): never {
  if (RemoteToolError.isInstance(error) && error.isRetryable) {
    throw new ToolExecutionError({
      code: error.code === 'deadline_exceeded' ? 'timeout' : error.code,
      message: error.message,
      retryable: true,
      cause: error,
    });
  }
  throw error;
}
