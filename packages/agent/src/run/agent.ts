import { randomUUID } from 'node:crypto';
import {
  createExecutor,
  EventChannel,
  type Executor,
  type ExecutorOptions,
  type Tool,
} from '@mtpx/executor';
import type { Provider, ToolSpec } from '@mtpx/protocol';
import { AgentError } from '../agent-error';
import type { AgentEvent, AgentEventHandler } from '../events/agent-events';
import { AgentRun, type RunSettings } from './agent-run';
import { type AgentToolInput, type AgentToolOptions, agentAsTool } from './agent-tool';
import { type EagerDispatchOption, eagerDispatchMode } from '../eager-dispatch';
import { InMemorySessionStore } from '../session/in-memory-session-store';
import { REFERENCE_INSTRUCTIONS } from './instructions';
import { specWithReferences } from './reference-schema';
import type { RunJournal } from '../run-journal';
import type { RunOutput } from './run-output';
import { type AgentResumeOptions, loadResumableRun } from '../run-resume';
import { checkSessionId, type SessionStore } from '../session/session';

/** The executor options an agent passes on when it makes its own executor. */
export type AgentExecutorOptions = Omit<ExecutorOptions, 'tools'>;

/** Options of {@link createAgent}. */
export interface AgentOptions extends AgentExecutorOptions {
  /** The model, behind the `Provider` interface (`@mtpx/providers` makes them). */
  provider: Provider;
  /**
   * The tools: anything `createExecutor` accepts (a `ToolRegistry`, or a list of tools and
   * toolkits), or a ready `Executor` — then configure policy, approval and the rest on it.
   */
  tools: ExecutorOptions['tools'] | Executor;
  /** Your system instructions, sent after the built-in ones. */
  instructions?: string;
  /**
   * Send {@link REFERENCE_INSTRUCTIONS} first in the system message (how to chain calls
   * with `$ref` in one response): 52 o200k tokens of text, 61 added to a Chat Completions
   * system message, on every request. Default true.
   */
  referenceInstructions?: boolean;
  /**
   * Offer tool schemas that accept `{"$ref": …}` wherever a value is expected (see
   * `schemaWithReferences`). `'auto'` (default): only when the provider enforces schemas
   * (`provider.strictTools`, e.g. `createOpenAIProvider({ strictTools: true })`), where a
   * reference the schema does not allow could not be written at all; otherwise the tools'
   * own schemas are sent and the instructions carry the rule. `true`: always — measured
   * 42–63 o200k tokens more per tool on the bench's toolsets (a shared definition of
   * about 43 tokens per schema, about 13 per value position); `false`: never (then a
   * strict provider refuses references).
   */
  referenceSchemas?: boolean | 'auto';
  /** Most model calls per run. Default 10. */
  maxRounds?: number;
  /** Most tool calls per run (every call the model makes counts). Default: no limit. */
  toolCallLimit?: number;
  /** Where sessions are kept. Default: a new {@link InMemorySessionStore}. */
  sessionStore?: SessionStore;
  /**
   * In streamed runs, when calls start (see {@link EagerDispatch}). `'safe'` (default):
   * read-only calls start as soon as each is complete, while the model is still writing
   * later ones; write / destructive calls wait for the response to finish normally and
   * never run when it ends in `length`, `content_filter`, a refusal, an error or a broken
   * stream. `'all'`: every call starts at once, whatever the response's end. `false`: calls
   * run after the stream ends. `true` (older code) means `'safe'`.
   */
  eagerDispatch?: EagerDispatchOption;
  /** A name for logs, events and `asTool`. */
  name?: string;
  /**
   * Receives every event of every run of this agent, before the run's own `onEvent`: one
   * line instruments all runs (a recorder, tracing). A handler that throws is ignored and
   * never changes a run; keep it cheap — it runs on the run's path (buffer, then write).
   */
  onEvent?: AgentEventHandler;
  /**
   * Journal every run here — its state after each model turn, each call's result as it
   * finishes — so that `resume(runId)` can finish a run whose process died, without
   * running a finished call again. Default: no journal.
   */
  journal?: RunJournal;
}

/** Options of one run. */
export interface AgentRunOptions {
  /** Aborting it cancels the run: the model call is aborted, calls in flight are cancelled. */
  signal?: AbortSignal;
  /** Continue (or start) this session: its messages come first, and the run is saved to it. */
  sessionId?: string;
  /** Who is running: must be the session's owner (a new session gets this owner). */
  userId?: string;
  /** Receives every event as it happens. */
  onEvent?: AgentEventHandler;
  /** The run's id. Default `run_<uuid>`. */
  runId?: string;
  /** Overrides the agent's `maxRounds` for this run. */
  maxRounds?: number;
  /** Overrides the agent's `toolCallLimit` for this run. */
  toolCallLimit?: number;
  /** Overrides the agent's `eagerDispatch` for this run. */
  eagerDispatch?: EagerDispatchOption;
}

/**
 * A streamed run: iterate it for the events (once), await `result` for the output. The
 * run starts at once and buffers its events, so awaiting only `result` works too.
 */
export interface AgentStream extends AsyncIterable<AgentEvent> {
  readonly runId: string;
  /** The run's output; rejects as `run()` does (the provider's error, unwrapped). */
  readonly result: Promise<RunOutput>;
  /** Cancels the run, like aborting its signal. */
  cancel(reason?: unknown): void;
}

/** An agent. Made by {@link createAgent}. */
export interface Agent {
  readonly name: string | undefined;
  readonly provider: Provider;
  /** The executor its tool calls run on. */
  readonly executor: Executor;
  readonly sessionStore: SessionStore;
  /**
   * Runs the loop with whole (non-streamed) model turns until the model answers in text
   * or a limit stops it. Resolves with the output (`stop_reason` says why it ended, a
   * cancellation included); rejects only for infrastructure failures — the provider's
   * own error (a `ProviderError`), or an {@link AgentError}.
   */
  run(input: string, options?: AgentRunOptions): Promise<RunOutput>;
  /** Runs the loop with streamed model turns and eager dispatch, yielding every event. */
  stream(input: string, options?: AgentRunOptions): AgentStream;
  /** This agent as a tool another agent (or any executor) can call. */
  asTool(options?: AgentToolOptions): Tool<AgentToolInput>;
  /**
   * Finishes a journaled run whose process stopped (needs `journal`): the calls it had
   * finished are answered from the journal, the others run (with the same ids, so the
   * same idempotency keys), and the loop goes on from its last model turn. A run that had
   * ended resolves with its output at once; a failed or unknown one rejects with
   * `run_not_resumable`, and one another process resumed first with `run_journal_conflict`.
   */
  resume(runId: string, options?: AgentResumeOptions): Promise<RunOutput>;
}

const executorOptionKeys = [
  'policy',
  'approve',
  'scheduling',
  'concurrency',
  'timeoutMs',
  'cache',
  'dedupe',
  'retryBackoff',
  'limits',
] as const satisfies ReadonlyArray<keyof AgentExecutorOptions>;

/** A stream's events have one consumer: the error for a second one. */
function streamAlreadyIterated(): AgentError {
  return new AgentError({
    code: 'events_already_iterated',
    message:
      "A run's events can be iterated once; pass `onEvent` to observe them from several places.",
  });
}

/**
 * Makes an agent: a provider, tools, and how the loop runs. One model response may hold
 * a whole dependency chain of calls (`{"$ref": "call_1"}`); the agent executes it at
 * once — streamed calls start while the model is still writing the next ones — and sends
 * the results back until the model answers.
 *
 * @example
 * ```ts
 * const agent = createAgent({ provider, tools: [calculatorToolkit()] });
 * const output = await agent.run('What is 15 + (4 × (18 − 6)) / 3?');
 * output.final_text; // "31"
 * ```
 */
export function createAgent(options: AgentOptions): Agent {
  const provider = checkProvider(options?.provider);
  const executor = executorOf(options);
  const maxRounds = checkCount('maxRounds', options.maxRounds ?? 10, 1);
  const toolCallLimit = checkCount(
    'toolCallLimit',
    options.toolCallLimit ?? Number.POSITIVE_INFINITY,
    0,
  );
  const sessionStore = options.sessionStore ?? new InMemorySessionStore();
  const systemPrompt = systemPromptOf(options);
  const referenceSchemas = referenceSchemasOf(options.referenceSchemas, provider);
  const eagerDispatch = eagerDispatchMode(options.eagerDispatch ?? 'safe');
  const name = options.name;
  const agentHandler = checkHandler(options.onEvent);
  const journal = options.journal;

  const offered = new WeakMap<ToolSpec, ToolSpec>();
  const toolSpecs = async (): Promise<ToolSpec[]> => {
    await executor.registry.load();
    const specs = executor.registry.list();
    if (!referenceSchemas) return specs;
    return specs.map((spec) => {
      let shown = offered.get(spec);
      if (shown === undefined) {
        shown = specWithReferences(spec);
        offered.set(spec, shown);
      }
      return shown;
    });
  };

  // Runs of one session take turns, so none overwrites another's messages.
  const sessionQueues = new Map<string, Promise<unknown>>();
  const inSessionOrder = <T>(sessionId: string | undefined, work: () => Promise<T>): Promise<T> => {
    if (sessionId === undefined) return work();
    const previous = sessionQueues.get(sessionId) ?? Promise.resolve();
    const next = previous.then(work, work);
    const settled = next.then(
      () => {},
      () => {},
    );
    sessionQueues.set(sessionId, settled);
    void settled.then(() => {
      if (sessionQueues.get(sessionId) === settled) sessionQueues.delete(sessionId);
    });
    return next;
  };

  /** A run's settings: the agent's, with the run's limits and mode. */
  const runSettings = (
    perRun: Pick<RunSettings, 'maxRounds' | 'toolCallLimit' | 'streaming' | 'eagerDispatch'>,
  ): RunSettings => ({
    provider,
    executor,
    systemPrompt,
    toolSpecs,
    sessionStore,
    agentName: name,
    journal,
    ...perRun,
  });

  const start = (
    input: string,
    runOptions: AgentRunOptions,
    streaming: boolean,
    signal: AbortSignal,
    onEvent: AgentEventHandler | undefined,
  ): { runId: string; result: Promise<RunOutput> } => {
    if (typeof input !== 'string') {
      throw invalidOption(`A run's input must be a string, got ${typeof input}.`);
    }
    if (runOptions.sessionId !== undefined) checkSessionId(runOptions.sessionId);
    if (runOptions.userId !== undefined && typeof runOptions.userId !== 'string') {
      throw invalidOption(`userId must be a string, got ${typeof runOptions.userId}.`);
    }
    const runId = runOptions.runId ?? `run_${randomUUID()}`;
    const settings = runSettings({
      maxRounds:
        runOptions.maxRounds === undefined
          ? maxRounds
          : checkCount('maxRounds', runOptions.maxRounds, 1),
      toolCallLimit:
        runOptions.toolCallLimit === undefined
          ? toolCallLimit
          : checkCount('toolCallLimit', runOptions.toolCallLimit, 0),
      streaming,
      eagerDispatch:
        runOptions.eagerDispatch === undefined
          ? eagerDispatch
          : eagerDispatchMode(runOptions.eagerDispatch),
    });
    const run = new AgentRun(settings, {
      runId,
      input,
      signal,
      sessionId: runOptions.sessionId,
      userId: runOptions.userId,
      onEvent: withAgentHandler(agentHandler, onEvent),
    });
    return { runId, result: inSessionOrder(runOptions.sessionId, () => run.execute()) };
  };

  const agent: Agent = {
    name,
    provider,
    executor,
    sessionStore,
    run: async (input, runOptions = {}) => {
      const signal = runOptions.signal ?? new AbortController().signal;
      return start(input, runOptions, false, signal, runOptions.onEvent).result;
    },
    stream: (input, runOptions = {}) => {
      const controller = new AbortController();
      const channel = new EventChannel<AgentEvent>({ alreadyIterated: streamAlreadyIterated });
      const userHandler = runOptions.onEvent;
      const onEvent: AgentEventHandler = (event) => {
        channel.push(event);
        userHandler?.(event);
      };
      const external = runOptions.signal;
      const onAbort = () => controller.abort(external?.reason);
      if (external?.aborted) onAbort();
      const { runId, result } = start(input, runOptions, true, controller.signal, onEvent);
      external?.addEventListener('abort', onAbort, { once: true });
      const done = () => {
        external?.removeEventListener('abort', onAbort);
        channel.close();
      };
      result.then(done, done);
      // The failure also arrives as `run-failed`; a caller who reads only events must not
      // get an unhandled rejection. `result` still rejects for those who await it.
      result.catch(() => {});
      return {
        runId,
        result,
        cancel: (reason?: unknown) => controller.abort(reason),
        [Symbol.asyncIterator]: () => channel[Symbol.asyncIterator](),
      };
    },
    asTool: (toolOptions = {}) => agentAsTool(agent, toolOptions),
    resume: async (runId, resumeOptions = {}) => {
      if (journal === undefined) {
        throw invalidOption('resume needs a journal: createAgent({ …, journal }).');
      }
      if (typeof runId !== 'string' || runId === '') {
        throw invalidOption(`resume needs a run id (a non-empty string), got ${String(runId)}.`);
      }
      const resumable = await loadResumableRun(journal, sessionStore, runId);
      if ('output' in resumable) return resumable.output;
      const { run: journaled } = resumable;
      const run = new AgentRun(
        runSettings({
          maxRounds: journaled.settings.max_rounds,
          toolCallLimit: journaled.settings.tool_call_limit ?? Number.POSITIVE_INFINITY,
          streaming: journaled.settings.streaming,
          eagerDispatch: eagerDispatchMode(journaled.settings.eager_dispatch),
        }),
        {
          runId,
          input: journaled.input,
          signal: resumeOptions.signal ?? new AbortController().signal,
          sessionId: journaled.session_id,
          userId: journaled.user_id,
          onEvent: withAgentHandler(agentHandler, resumeOptions.onEvent),
          resumed: resumable,
        },
      );
      return inSessionOrder(journaled.session_id, () => run.execute());
    },
  };
  return agent;
}

function checkHandler(handler: unknown): AgentEventHandler | undefined {
  if (handler === undefined || typeof handler === 'function')
    return handler as AgentEventHandler | undefined;
  throw invalidOption(`onEvent must be a function, got ${typeof handler}.`);
}

/**
 * The agent-wide handler first, then the run's own; a throw from the agent-wide one is
 * swallowed here so the run's handler still gets the event.
 */
function withAgentHandler(
  agentHandler: AgentEventHandler | undefined,
  runHandler: AgentEventHandler | undefined,
): AgentEventHandler | undefined {
  if (agentHandler === undefined) return runHandler;
  return (event) => {
    try {
      agentHandler(event);
    } catch {
      // An observer's failure must not change the run.
    }
    runHandler?.(event);
  };
}

function checkProvider(provider: unknown): Provider {
  const candidate = provider as Partial<Provider> | undefined;
  if (typeof candidate?.generate !== 'function' || typeof candidate.stream !== 'function') {
    throw invalidOption(
      '`provider` must be a Provider (with `generate` and `stream`), such as createOpenAIProvider(…) from @mtpx/providers/openai.',
    );
  }
  return candidate as Provider;
}

function isExecutor(tools: unknown): tools is Executor {
  const candidate = tools as Partial<Executor> | undefined;
  return (
    typeof candidate?.executeToolCalls === 'function' &&
    typeof candidate.start === 'function' &&
    typeof candidate.registry?.list === 'function'
  );
}

function executorOf(options: AgentOptions): Executor {
  const { tools } = options;
  if (!isExecutor(tools)) {
    const executorOptions: ExecutorOptions = { tools };
    for (const key of executorOptionKeys) {
      if (options[key] !== undefined) Object.assign(executorOptions, { [key]: options[key] });
    }
    return createExecutor(executorOptions);
  }
  const given = executorOptionKeys.filter((key) => options[key] !== undefined);
  if (given.length > 0) {
    throw invalidOption(
      `${given.map((key) => `\`${key}\``).join(', ')} cannot be applied to an executor you pass as \`tools\`; set ${given.length === 1 ? 'it' : 'them'} on that executor (createExecutor), or pass its tools instead.`,
    );
  }
  return tools;
}

/** Whether the offered schemas accept references: `'auto'` follows the provider's `strictTools`. */
function referenceSchemasOf(option: unknown, provider: Provider): boolean {
  if (option === undefined || option === 'auto') return provider.strictTools === true;
  if (typeof option === 'boolean') return option;
  throw invalidOption(`referenceSchemas must be true, false or 'auto', got ${String(option)}.`);
}

function systemPromptOf(options: AgentOptions): string | undefined {
  const parts: string[] = [];
  if (options.referenceInstructions ?? true) parts.push(REFERENCE_INSTRUCTIONS);
  if (options.instructions !== undefined) {
    if (typeof options.instructions !== 'string') {
      throw invalidOption(`instructions must be a string, got ${typeof options.instructions}.`);
    }
    if (options.instructions !== '') parts.push(options.instructions);
  }
  return parts.length === 0 ? undefined : parts.join('\n\n');
}

function checkCount(name: string, value: unknown, minimum: number): number {
  const ok =
    value === Number.POSITIVE_INFINITY ||
    (typeof value === 'number' && Number.isInteger(value) && value >= minimum);
  if (!ok) {
    throw invalidOption(
      `${name} must be an integer of at least ${minimum} (or Infinity), got ${String(value)}.`,
    );
  }
  return value as number;
}

function invalidOption(message: string): AgentError {
  return new AgentError({ code: 'invalid_option', message });
}
