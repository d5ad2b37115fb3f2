import type { ExecutionRun, Executor, ExecutorEvent } from '@mtpx/executor';
import { type AssistantToolCall, findRefs, type ToolResult } from '@mtpx/protocol';
import { AgentError } from './agent-error';
import { boundedToolCall } from './bounded-calls';
import { ResponseAliases } from './call-aliases';
import { finishedNormally, notFinishedMessage, startsEarly } from './eager-dispatch';
import type { AgentEvent } from './events/agent-events';

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
  /** Hand calls to the executor as soon as they are ready (streamed rounds). */
  eager: boolean;
  /** Safe dispatch: write / destructive calls run only when the response finished normally. */
  safe: boolean;
  budget: CallBudget;
  /** Sends an event (stamped by the run); `undefined` when nobody listens. */
  emit: ((event: AgentEvent) => void) | undefined;
  /** Milliseconds since the run started. */
  now: () => number;
}

interface Entry {
  /** The call as the model wrote it (bounded: an out-of-bounds call is replaced). */
  toolCall: AssistantToolCall;
  /** The call as executed (aliases rewritten). */
  call: AssistantToolCall;
  /** True when it may run only once the response has finished normally (safe dispatch). */
  unsafe: boolean;
  /** When it was held (eager rounds), in run milliseconds. */
  heldAt?: number;
  /** Its place among the calls handed to the executor, once handed. */
  position?: number;
  /** A result the agent made itself (past the limit, a duplicate id, never handed over). */
  result?: ToolResult;
}

/**
 * The tool calls of one model response: their positional aliases, the run's call limit,
 * duplicate ids, safe dispatch and their execution — each handed to the executor the
 * moment it is ready (eager), or all together once the response is complete.
 *
 * Duplicate ids (one rule for `run()` and `stream()`): of several calls of a response
 * with the same id, the one that began first (the first in the response) runs; every
 * later one is answered `invalid_plan` and never runs. A call reusing the id of an
 * earlier round's call is answered the same way by the executor.
 */
export class RoundCalls {
  /** True when a call was refused because `toolCallLimit` was reached. */
  refused = false;
  readonly #options: RoundCallsOptions;
  readonly #aliases: ResponseAliases;
  readonly #entries: Array<Entry | undefined> = [];
  readonly #handed: Entry[] = [];
  /** The index of the first call that began with each id. */
  readonly #firstIndex = new Map<string, number>();
  /** Ids of the response's calls that wait for a normal finish. */
  readonly #unsafeIds = new Set<string>();
  #run: ExecutionRun | undefined;

  constructor(options: RoundCallsOptions) {
    this.#options = options;
    this.#aliases = new ResponseAliases((id) => options.history.has(id));
  }

  /** A call began streaming at `index` (its id, once known, anchors the `call_N` alias). */
  begin(index: number, id: string | undefined): void {
    this.#aliases.begin(index, id);
    this.#claim(index, id);
  }

  /**
   * The call as the conversation may keep it: itself when its arguments are within the
   * executor's bounds, else the same id and name with no arguments and an
   * `arguments_error` (so it is answered `invalid_arguments` and can be sent back).
   */
  bounded(toolCall: AssistantToolCall): AssistantToolCall {
    return boundedToolCall(toolCall, this.#options.executor.limits);
  }

  /** One call is complete: bound it, rewrite its aliases, apply the limit, dispatch or hold it. */
  ready(index: number, rawToolCall: AssistantToolCall): void {
    if (this.#entries[index] !== undefined) {
      throw new AgentError({
        code: 'invalid_provider_response',
        message: `The provider reported tool call ${index} ready twice.`,
      });
    }
    const toolCall = this.bounded(rawToolCall);
    this.#claim(index, toolCall.id);
    const { call, aliases } = this.#aliases.rewrite(index, toolCall);
    const entry: Entry = { toolCall, call, unsafe: false };
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
      this.#answer(entry, refusedResult(call, this.#options.budget.limit));
      return;
    }
    const first = typeof call.id === 'string' ? this.#firstIndex.get(call.id) : undefined;
    if (first !== undefined && first < index) {
      this.#answer(entry, duplicateResult(call, first, index));
      return;
    }
    const reason = this.#holdReason(call);
    entry.unsafe = reason !== undefined;
    if (entry.unsafe) this.#unsafeIds.add(call.id);
    if (!this.#options.eager) return;
    if (reason === undefined) {
      this.#hand(entry);
      return;
    }
    entry.heldAt = now();
    emit?.({
      type: 'call-held',
      runId,
      at: entry.heldAt,
      round,
      callId: call.id,
      toolName: call.name,
      reason,
    });
  }

  /** The calls reported ready so far, in response order, as the conversation keeps them. */
  readyCalls(): AssistantToolCall[] {
    return this.#entries.flatMap((entry) => (entry === undefined ? [] : [entry.toolCall]));
  }

  /**
   * The response is complete: readies the calls the provider did not report one by one,
   * runs what is left — held calls only when `finishReason` is a normal end — and resolves
   * with one result per call of `toolCalls`, in order.
   */
  async finish(
    toolCalls: readonly AssistantToolCall[],
    finishReason = 'tool_calls',
  ): Promise<ToolResult[]> {
    toolCalls.forEach((toolCall, index) => {
      if (this.#entries[index] === undefined) this.ready(index, toolCall);
    });
    const normal = finishedNormally(finishReason);
    const waiting: Entry[] = [];
    for (const entry of this.#entries) {
      if (entry === undefined || entry.result !== undefined || entry.position !== undefined)
        continue;
      if (entry.unsafe && this.#options.safe && !normal) {
        entry.result = failedResult(entry.call, 'cancelled', notFinishedMessage(finishReason));
        this.#skipped(entry);
      } else {
        waiting.push(entry);
      }
    }
    const results = await this.#execute(waiting);
    return toolCalls.map((toolCall, index) => {
      const entry = this.#entries[index] as Entry;
      return entry.result ?? results[entry.position as number] ?? lostResult(toolCall);
    });
  }

  /**
   * The response broke off: calls already dispatched are cancelled (and answered
   * `cancelled`); calls that were ready but not dispatched (held ones included) never run.
   * Resolves with one result per call of {@link readyCalls}.
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
      if (entry.result !== undefined) return [entry.result];
      if (entry.position !== undefined && results[entry.position] !== undefined) {
        return [results[entry.position] as ToolResult];
      }
      if (entry.heldAt !== undefined) {
        return [failedResult(entry.call, 'cancelled', notFinishedMessage('the stream broke off'))];
      }
      return [notRunResult(entry.call)];
    });
  }

  /** Remembers the first index that began with `id`. */
  #claim(index: number, id: unknown): void {
    if (typeof id !== 'string' || id === '') return;
    const first = this.#firstIndex.get(id);
    if (first === undefined || index < first) this.#firstIndex.set(id, index);
  }

  /** Why safe dispatch holds `call` until the response finishes, or `undefined`. */
  #holdReason(call: AssistantToolCall): string | undefined {
    if (!this.#options.safe) return undefined;
    const tool = this.#options.executor.registry.get(call.name);
    if (!startsEarly(tool)) {
      return tool === undefined
        ? `no loaded tool is named "${call.name}"`
        : `risk level ${tool.risk_level ?? 'read_only'}`;
    }
    if (this.#unsafeIds.size === 0) return undefined;
    const targets = [
      ...(Array.isArray(call.depends_on) ? call.depends_on : []),
      ...findRefs(call.arguments),
    ];
    const held = targets.find((target) => this.#unsafeIds.has(target));
    return held === undefined ? undefined : `depends on held call ${held}`;
  }

  /** Answers a call the agent never hands over, with its `call-skipped` event. */
  #answer(entry: Entry, result: ToolResult): void {
    entry.result = result;
    this.#skipped(entry);
  }

  #skipped(entry: Entry): void {
    const result = entry.result as ToolResult;
    const { emit, now, runId, round } = this.#options;
    emit?.({
      type: 'call-skipped',
      runId,
      at: now(),
      round,
      callId: entry.call.id,
      toolName: entry.call.name,
      errorCode: result.error_code ?? 'cancelled',
      error: result.error as string,
      result,
    });
  }

  /** Hands one call to the eager run. */
  #hand(entry: Entry): void {
    entry.position = this.#handed.length;
    this.#handed.push(entry);
    this.#started().add(entry.call);
  }

  async #execute(waiting: Entry[]): Promise<ToolResult[]> {
    if (this.#options.eager) {
      const { emit, now, runId, round } = this.#options;
      for (const entry of waiting) {
        if (entry.heldAt !== undefined) {
          const at = now();
          emit?.({
            type: 'call-released',
            runId,
            at,
            round,
            callId: entry.call.id,
            toolName: entry.call.name,
            heldMs: at - entry.heldAt,
          });
        }
        this.#hand(entry);
      }
      if (this.#run === undefined) return [];
      this.#run.end();
      return this.#run.results;
    }
    for (const entry of waiting) {
      entry.position = this.#handed.length;
      this.#handed.push(entry);
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

function failedResult(
  call: AssistantToolCall,
  code: 'denied' | 'cancelled' | 'invalid_plan',
  error: string,
) {
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

function duplicateResult(call: AssistantToolCall, first: number, index: number): ToolResult {
  return failedResult(
    call,
    'invalid_plan',
    `Call id "${call.id}" is used twice (calls[${first}] and calls[${index}]); give every call its own id; only the first call with it is run.`,
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
