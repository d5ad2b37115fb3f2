import type { AgentEvent } from '@mtpx/agent';
import type { RunViewEvent } from '@mtpx/agent/run-view';
import { type Context, type Tracer, trace } from '@opentelemetry/api';
import { activeContext, RunTrace } from './run-trace';
import { VERSION } from './version';

/** Options of {@link traceRuns}. */
export interface TraceRunsOptions {
  /** Where spans go. Default: `trace.getTracer('@mtpx/telemetry')` of the global provider. */
  tracer?: Tracer;
  /**
   * Record content: the user's input, the model's output messages, each call's arguments
   * and result (`gen_ai.input.messages`, `gen_ai.output.messages`,
   * `gen_ai.tool.call.arguments`, `gen_ai.tool.call.result`). Off by default: content may
   * hold personal data.
   */
  captureContent?: boolean;
  /** The parent context of each run's span. Default: the active context when the run starts. */
  parentContext?: () => Context;
}

/**
 * Any event the handler may receive: the agent's, the executor's, or one it does not know
 * (the events the agent's run view folds).
 */
export type TracedEvent = RunViewEvent;

/** An `onEvent` handler that makes spans; pass it to `createAgent`, a run, or an executor. */
export type TracingHandler = (event: TracedEvent) => void;

/**
 * Traces runs with OpenTelemetry, per the GenAI semantic conventions: one `invoke_agent`
 * span per run, a `chat` span per model call (model, finish reason, token usage with cache
 * and reasoning tokens), an `execute_tool` span per call (tool, call id, attempt, cached,
 * approval, outcome) with a span link to each call its `$ref`s name, and MCP input rounds
 * and progress as events on the tool span. Never throws into the run: a failure in the
 * tracing SDK is swallowed.
 *
 * @example
 * ```ts source="./trace-runs.examples.ts#traceRuns"
 * const agent = createAgent({ provider, tools, onEvent: traceRuns({ captureContent: false }) });
 * ```
 */
export function traceRuns(options: TraceRunsOptions = {}): TracingHandler {
  const tracer = options.tracer ?? trace.getTracer('@mtpx/telemetry', VERSION);
  const captureContent = options.captureContent ?? false;
  const parentOf = options.parentContext ?? activeContext;
  const runs = new Map<string, RunTrace>();
  return (event) => {
    try {
      const key = event.runId ?? '';
      let run = runs.get(key);
      if (run === undefined) {
        if (event.type === 'run-finished' || event.type === 'plan-finished') return;
        run = new RunTrace(
          { tracer, captureContent, parent: parentOf() },
          { at: typeof event.at === 'number' ? event.at : 0 },
          event.type === 'run-started'
            ? (event as Extract<AgentEvent, { type: 'run-started' }>)
            : undefined,
        );
        runs.set(key, run);
      }
      const over = run.handle(event);
      // A run without `run-started` (an executor's own events) ends with its plan.
      if (over || (event.type === 'plan-finished' && !run.hasRunSpan)) runs.delete(key);
    } catch {
      // Tracing must never change a run.
    }
  };
}
