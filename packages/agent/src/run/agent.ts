import { randomUUID } from 'node:crypto';
import type { Executor, Tool } from '@mtpx/executor';
import { EventChannel } from '@mtpx/executor/internal';
import type { Provider, ToolSpec } from '@mtpx/protocol';
import { AgentError } from '../agent-error';
import { claimWithDecisions, refuseDecisionsForEnded } from '../approvals/approval-resume';
import { approvalSecretOf } from '../approvals/approval-signature';
import type { AgentEvent, AgentEventHandler } from '../events/agent-events';
import { leaseSettingsOf, RunLeaseKeeper } from '../journal/run-lease-keeper';
import { type AgentResumeOptions, loadResumableRun } from '../journal/run-resume';
import { InMemorySessionStore } from '../session/in-memory-session-store';
import { checkSessionId, type SessionStore } from '../session/session';
import { toolSearchOf } from '../tool-search/agent-tool-search';
import {
  type AgentOptions,
  type AgentRunOptions,
  checkCount,
  checkHandler,
  checkProvider,
  executorOf,
  invalidOption,
  referenceSchemasOf,
  systemPromptOf,
} from './agent-options';
import { AgentRun } from './agent-run';
import { type AgentToolInput, type AgentToolOptions, agentAsTool } from './agent-tool';
import { eagerDispatchMode } from './eager-dispatch';
import { specWithReferences } from './reference-schema';
import type { RunOutput } from './run-output';
import type { RunSettings } from './run-settings';

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
   * or a limit stops it. Resolves with the output (`stopReason` says why it ended, a
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
   * `run_not_resumable`. Resuming takes the run's lease: while another process's lease is
   * live, it rejects with `run_lease_held` (a `RunLeaseError` naming the holder and the
   * expiry; `waitForLeaseMs` waits for it), and the process that held it stops at its next
   * renewal or journal write with `run_lease_lost`, its in-flight calls aborted.
   */
  resume(runId: string, options?: AgentResumeOptions): Promise<RunOutput>;
}

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
 * ```ts source="./agent.examples.ts#createAgent"
 * const agent = createAgent({ provider, tools: [calculatorToolkit()] });
 * const output = await agent.run('What is 15 + (4 × (18 − 6)) / 3?');
 * output.finalText; // "31"
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
  const lease = leaseSettingsOf(options.lease);
  const toolSearch = toolSearchOf(options.toolSearch, executor, provider);
  const approvalSecret = approvalSecretOf(options.approvalSecret);

  const offered = new WeakMap<ToolSpec, ToolSpec>();
  const toolSpecs = async (): Promise<ToolSpec[]> => {
    await executor.registry.load();
    const specs = executor.registry.list();
    if (!referenceSchemas) return specs;
    return specs.map((spec) => {
      // The search tool takes words, never a reference: its schema stays as it is.
      if (spec.name === toolSearch?.settings.name && !toolSearch.native) return spec;
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
    lease,
    toolSearch,
    approvalSecret,
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
      const found = await loadResumableRun(journal, sessionStore, runId);
      if ('output' in found) {
        // A run that ended runs nothing again; a decision for it is a replay (or unknown).
        await refuseDecisionsForEnded(journal, runId, resumeOptions.approvals, approvalSecret);
        return found.output;
      }
      const waitMs = resumeOptions.waitForLeaseMs ?? 0;
      if (typeof waitMs !== 'number' || !(waitMs >= 0)) {
        throw invalidOption(`waitForLeaseMs must be a number ≥ 0, got ${String(waitMs)}.`);
      }
      const held = await RunLeaseKeeper.acquire(journal, runId, lease, {
        waitMs,
        ...(resumeOptions.signal === undefined ? {} : { signal: resumeOptions.signal }),
      });
      // Read again under the lease: the previous owner may have gone on (or ended) meanwhile.
      let resumable: Awaited<ReturnType<typeof loadResumableRun>>;
      try {
        resumable = await loadResumableRun(journal, sessionStore, runId);
      } catch (error) {
        await held.release();
        throw error;
      }
      if ('output' in resumable) {
        await held.release();
        return resumable.output;
      }
      // The decisions are checked under the lease, against the run as it stands now.
      let claimed: ReturnType<typeof claimWithDecisions>;
      try {
        claimed = claimWithDecisions(resumable.run, resumeOptions.approvals, approvalSecret);
      } catch (error) {
        await held.release();
        throw error;
      }
      const journaled = claimed.run;
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
          resumed: { ...resumable, run: journaled, lease: held, answers: claimed.answers },
        },
      );
      return inSessionOrder(journaled.session_id, () => run.execute());
    },
  };
  return agent;
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
