import { createExecutor, type Executor, type ExecutorOptions } from '@mtpx/executor';
import type { Provider } from '@mtpx/protocol';
import { AgentError } from '../agent-error';
import type { ApprovalSecret } from '../approvals/approval-signature';
import type { AgentEventHandler } from '../events/agent-events';
import type { RunJournal } from '../journal/run-journal';
import type { AgentLeaseOptions } from '../journal/run-lease-keeper';
import type { InMemorySessionStore } from '../session/in-memory-session-store';
import type { SessionStore } from '../session/session';
import type { ToolSearchOptions } from '../tool-search/tool-search-options';
import type { EagerDispatchOption } from './eager-dispatch';
import { REFERENCE_INSTRUCTIONS } from './instructions';

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
  /**
   * With a `journal`, a call whose policy asks for approval and that no `approve` handler
   * decides (none is configured, or it answers `'defer'`) waits for a person: the run goes
   * on with everything that does not need it, then stops with `stopReason:
   * 'awaiting_approval'` and `pendingApprovals`; `resume(runId, { approvals })` goes on in
   * any process with the journal. With this secret (16 bytes or more) each pending approval
   * is signed (HMAC-SHA256 over run, call, tool and the arguments' digest) and a decision
   * must hand the signature back.
   */
  approvalSecret?: ApprovalSecret;
  /**
   * How a journaled run holds its lease (one owner per run): how long a lease lasts
   * unless renewed (`ttlMs`, default 30 s, renewed every third) and the name other
   * processes see in `run_lease_held` (`holder`, default `host:pid`).
   */
  lease?: AgentLeaseOptions;
  /**
   * Keep tools out of the request until the model finds them: a search tool is offered
   * instead (BM25 over names, descriptions and parameter names, or your own `index`), and
   * each tool it finds is sent from the next request on, for the rest of the run. With a
   * provider that searches itself (`provider.nativeToolSearch`), the API's search is used.
   * `true` defers every tool. Default: off (every schema on every request).
   */
  toolSearch?: boolean | ToolSearchOptions;
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

const executorOptionKeys = [
  'policy',
  'approve',
  'scheduling',
  'concurrency',
  'toolConcurrency',
  'timeoutMs',
  'cache',
  'dedupe',
  'retryBackoff',
  'limits',
] as const satisfies ReadonlyArray<keyof AgentExecutorOptions>;

export function checkHandler(handler: unknown): AgentEventHandler | undefined {
  if (handler === undefined || typeof handler === 'function')
    return handler as AgentEventHandler | undefined;
  throw invalidOption(`onEvent must be a function, got ${typeof handler}.`);
}

export function checkProvider(provider: unknown): Provider {
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

export function executorOf(options: AgentOptions): Executor {
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
export function referenceSchemasOf(option: unknown, provider: Provider): boolean {
  if (option === undefined || option === 'auto') return provider.strictTools === true;
  if (typeof option === 'boolean') return option;
  throw invalidOption(`referenceSchemas must be true, false or 'auto', got ${String(option)}.`);
}

export function systemPromptOf(options: AgentOptions): string | undefined {
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

export function checkCount(name: string, value: unknown, minimum: number): number {
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

export function invalidOption(message: string): AgentError {
  return new AgentError({ code: 'invalid_option', message });
}
