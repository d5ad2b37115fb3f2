import type { ExecutionRun, Executor, ExecutorEvent } from '@mtpx/executor';
import type { AssistantToolCall, ToolResult } from '@mtpx/protocol';
import { AgentError } from './agent-error';
import type { AgentEvent } from './agent-events';
import { ResponseAliases } from './call-aliases';

/** How many more calls a run may make (`toolCallLimit`), shared by its rounds. */
export class CallBudget {
  readonly limit: number;
  #used = 0;

  /** `used`: calls an earlier part of the run made (a resumed run's rounds before). */
  constructor(limit: number, used = 0) {
    this.limit = limit;
    this.#used = Math.min(used, limit);
  }

  /** Takes one call from the budget; false when none is left. */
  take(): boolean {
    if (this.#used >= this.limit) return false;
    this.#used++;
    return true;
  }
}

/** What a round needs to run its calls. */
export interface RoundCallsOptions {
  executor: Executor;
  /** Results of earlier rounds (and earlier runs of the session), by call id. */
  history: ReadonlyMap<string, ToolResult>;
  signal: AbortSignal;
  runId: string;
  round: number;
  /** Hand each call to the executor as soon as it is ready (streamed rounds). */
  eager: boolean;
  budget: CallBudget;
  /** Sends an event (stamped by the run); `undefined` when nobody listens. */
  emit: ((event: AgentEvent) => void) | undefined;
  /** Milliseconds since the run started. */
  now: () => number;
}

interface Entry {
  toolCall: AssistantToolCall;
  call: AssistantToolCall;
  /** Its place among the calls handed to the executor. */
  position?: number;
  /** A result the agent made itself (a call past the limit, or one never handed over). */
  result?: ToolResult;
}

/**
 * The tool calls of one model response: their positional aliases, the run's call limit,
 * and their execution — each handed to the executor the moment it is ready (eager), or
 * all together once the response is complete.
 */
export class RoundCalls {
  /** True when a call was refused because `toolCallLimit` was reached. */
  refused = false;
  readonly #options: RoundCallsOptions;
  readonly #aliases: ResponseAliases;
  readonly #entries: Array<Entry | undefined> = [];
  readonly #handed: Entry[] = [];
  #run: ExecutionRun | undefined;

  constructor(options: RoundCallsOptions) {
    this.#options = options;
    this.#aliases = new ResponseAliases((id) => options.history.has(id));
  }

  /** A call began streaming at `index` (its id, once known, anchors the `call_N` alias). */
  begin(index: number, id: string | undefined): void {
    this.#aliases.begin(index, id);
  }

  /** One call is complete: rewrite its aliases, apply the limit, and (eagerly) dispatch it. */
  ready(index: number, toolCall: AssistantToolCall): void {
    if (this.#entries[index] !== undefined) {
      throw new AgentError({
        code: 'invalid_provider_response',
        message: `The provider reported tool call ${index} ready twice.`,
      });
    }
    const { call, aliases } = this.#aliases.rewrite(index, toolCall);
    const entry: Entry = { toolCall, call };
    this.#entries[index] = entry;
    const accepted = this.#options.budget.take();
    const { emit, now, runId, round } = this.#options;
    emit?.({
      type: 'tool-call-ready',
      runId,
      at: now(),
      round,
      index,
      toolCall,
      call,
      aliases,
      refused: !accepted,
    });
    if (!accepted) {
      this.refused = true;
      entry.result = refusedResult(call, this.#options.budget.limit);
      emit?.({
        type: 'call-skipped',
        runId,
        at: now(),
        round,
        callId: call.id,
        toolName: call.name,
        errorCode: 'denied',
        error: entry.result.error as string,
        result: entry.result,
      });
      return;
    }
    entry.position = this.#handed.length;
    this.#handed.push(entry);
    if (this.#options.eager) this.#started().add(call);
  }

  /** The calls reported ready so far, in response order, with the model's words. */
  readyCalls(): AssistantToolCall[] {
    return this.#entries.flatMap((entry) => (entry === undefined ? [] : [entry.toolCall]));
  }

  /**
   * The response is complete: readies the calls the provider did not report one by one,
   * runs what is left, and resolves with one result per call of `toolCalls`, in order.
   */
  async finish(toolCalls: readonly AssistantToolCall[]): Promise<ToolResult[]> {
    toolCalls.forEach((toolCall, index) => {
      if (this.#entries[index] === undefined) this.ready(index, toolCall);
    });
    const results = await this.#execute();
    return toolCalls.map((toolCall, index) => {
      const entry = this.#entries[index] as Entry;
      return entry.result ?? results[entry.position as number] ?? lostResult(toolCall);
    });
  }

  /**
   * The response broke off: calls already dispatched are cancelled (and answered
   * `cancelled`); calls that were ready but not dispatched never run. Resolves with one
   * result per call of {@link readyCalls}.
   */
  async abort(reason: unknown): Promise<ToolResult[]> {
    let results: ToolResult[] = [];
    if (this.#run !== undefined) {
      this.#run.cancel(reason);
      this.#run.end();
      results = await this.#run.results;
    }
    return this.#entries.flatMap((entry) => {
      if (entry === undefined) return [];
      const result =
        entry.result ??
        (entry.position === undefined ? undefined : results[entry.position]) ??
        notRunResult(entry.call);
      return [result];
    });
  }

  async #execute(): Promise<ToolResult[]> {
    if (this.#options.eager) {
      if (this.#run === undefined) return [];
      this.#run.end();
      return this.#run.results;
    }
    if (this.#handed.length === 0) return [];
    return this.#options.executor.executeToolCalls(
      this.#handed.map((entry) => entry.call),
      this.#runOptions(),
    );
  }

  #started(): ExecutionRun {
    this.#run ??= this.#options.executor.start(this.#runOptions());
    return this.#run;
  }

  #runOptions() {
    const { emit, now, runId, round, signal, history } = this.#options;
    const onEvent =
      emit === undefined
        ? undefined
        : (event: ExecutorEvent) =>
            emit({ ...event, runId, round, executorAt: event.at, at: now() } as AgentEvent);
    return { signal, history, runId, ...(onEvent === undefined ? {} : { onEvent }) };
  }
}

function failedResult(call: AssistantToolCall, code: 'denied' | 'cancelled', error: string) {
  const result: ToolResult = {
    call_id: call.id,
    tool_name: call.name,
    output: null,
    success: false,
    error,
    error_code: code,
    cached: false,
    skipped: true,
    created_at: new Date().toISOString(),
  };
  return result;
}

function refusedResult(call: AssistantToolCall, limit: number): ToolResult {
  return failedResult(
    call,
    'denied',
    `Not run: this run allows at most ${limit} tool call${limit === 1 ? '' : 's'}, and that many have been made.`,
  );
}

function notRunResult(call: AssistantToolCall): ToolResult {
  return failedResult(
    call,
    'cancelled',
    'Not run: the response broke off before this call could start.',
  );
}

/** Never expected: the executor gives one result per call. Kept so a bug cannot crash a run. */
function lostResult(call: AssistantToolCall): ToolResult {
  return failedResult(call, 'cancelled', 'Not run: the executor returned no result for this call.');
}
