import {
  type Executor,
  type ExecutorEvent,
  holdSideEffects,
  type PlanApprovals,
  type PlanExecution,
  type PlanExecutionOptions,
} from '@mtpx/executor';
import { boundedToolCall } from '@mtpx/executor/internal';
import type { AssistantToolCall, ToolResult } from '@mtpx/protocol';
import { AgentError } from '../agent-error';
import type { AgentEvent } from '../events/agent-events';
import type { RunJournalRecorder } from '../journal/run-journal-recorder';
import { ResponseAliases } from './call-aliases';
import { finishedNormally, notFinishedMessage } from './eager-dispatch';

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
  /** The run's journal, when it has one: finished calls are answered from it, results recorded. */
  journal?: RunJournalRecorder | undefined;
  /** Approvals decided outside the run, and calls left pending (a journaled run). */
  approvals?: PlanApprovals | undefined;
  /** Sends an event (stamped by the run); `undefined` when nobody listens. */
  emit: ((event: AgentEvent) => void) | undefined;
  /** Milliseconds since the run started. */
  now: () => number;
  /** The agent's own answer to a call it never hands over (a deferred tool not found yet). */
  refuse?: ((call: AssistantToolCall) => ToolResult | undefined) | undefined;
}

interface Entry {
  /** The call as the model wrote it (bounded: an out-of-bounds call is replaced). */
  toolCall: AssistantToolCall;
  /** The call as executed (aliases rewritten). */
  call: AssistantToolCall;
  /** Its place among the calls handed to the executor, once handed. */
  position?: number;
  /** A result the agent made itself (past the run's call limit). */
  result?: ToolResult;
}

/**
 * The tool calls of one model response, as the agent hands them to the executor: their
 * positional aliases (`call_N`) and the run's call limit are the agent's own; everything
 * else — bounds, duplicate and reused ids, dependency waits, holding write calls until
 * the response finished (safe dispatch), answers from the run's journal — is the plan
 * execution's (`executor.start`), decided there once. Each call is handed over the moment
 * it is ready (eager), or all together once the response is complete; the executor sees
 * exactly the calls of the `tool-call-ready` events that were not refused, in that order.
 */
export class RoundCalls {
  /** True when a call was refused because `toolCallLimit` was reached. */
  refused = false;
  readonly #options: RoundCallsOptions;
  readonly #aliases: ResponseAliases;
  readonly #entries: Array<Entry | undefined> = [];
  readonly #handed: Entry[] = [];
  #execution: PlanExecution | undefined;

  constructor(options: RoundCallsOptions) {
    this.#options = options;
    this.#aliases = new ResponseAliases((id) => options.history.has(id));
  }

  /** A call began streaming at `index` (its id, once known, anchors the `call_N` alias). */
  begin(index: number, id: string | undefined): void {
    this.#aliases.begin(index, id);
  }

  /**
   * The call as the conversation may keep it: itself when its arguments are within the
   * executor's bounds, else the same id and name with no arguments and an
   * `arguments_error` (so it is answered `invalid_arguments` and can be sent back).
   */
  bounded(toolCall: AssistantToolCall): AssistantToolCall {
    return boundedToolCall(toolCall, this.#options.executor.limits);
  }

  /** One call is complete: bound it, rewrite its aliases, apply the limit, hand it over. */
  ready(index: number, rawToolCall: AssistantToolCall): void {
    if (this.#entries[index] !== undefined) {
      throw new AgentError({
        code: 'invalid_provider_response',
        message: `The provider reported tool call ${index} ready twice.`,
      });
    }
    const toolCall = this.bounded(rawToolCall);
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
      this.#answer(entry, refusedResult(call, this.#options.budget.limit));
      return;
    }
    const refusal = this.#options.refuse?.(call);
    if (refusal !== undefined) {
      this.#answer(entry, refusal);
      return;
    }
    if (this.#options.eager) this.#hand(entry, this.#started());
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
    // A run whose lease ran out meanwhile starts nothing more (the check aborts it).
    this.#options.journal?.checkLease();
    let results: ToolResult[] = [];
    if (this.#options.eager) {
      const execution = this.#execution;
      if (execution !== undefined) {
        if (normal) execution.release();
        else execution.dropHeld(notFinishedMessage(finishReason));
        execution.end();
        results = await this.#results(execution);
      }
    } else {
      const waiting = this.#entries.filter(
        (entry): entry is Entry => entry !== undefined && entry.result === undefined,
      );
      if (waiting.length > 0) {
        if (this.#options.safe && !normal) {
          // The response did not finish: its write calls (and what needs them) never run.
          const execution = this.#started();
          for (const entry of waiting) this.#hand(entry, execution);
          execution.dropHeld(notFinishedMessage(finishReason));
          execution.end();
          results = await this.#results(execution);
        } else {
          for (const entry of waiting) entry.position = this.#handed.push(entry) - 1;
          results = await this.#options.executor.executeToolCalls(
            waiting.map((entry) => entry.call),
            this.#executionOptions(false),
          );
          await this.#options.journal?.flush();
        }
      }
    }
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
    const execution = this.#execution;
    if (execution !== undefined) {
      execution.dropHeld(notFinishedMessage('the stream broke off'));
      execution.cancel(reason);
      execution.end();
      results = await this.#results(execution);
    }
    return this.#entries.flatMap((entry) => {
      if (entry === undefined) return [];
      if (entry.result !== undefined) return [entry.result];
      const result = entry.position === undefined ? undefined : results[entry.position];
      return [result ?? notRunResult(entry.call)];
    });
  }

  /** Answers a call the agent never hands over (past the call limit), with its `call-skipped` event. */
  #answer(entry: Entry, result: ToolResult): void {
    entry.result = result;
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

  /** Hands one call to the plan execution. */
  #hand(entry: Entry, execution: PlanExecution): void {
    this.#options.journal?.checkLease();
    entry.position = this.#handed.push(entry) - 1;
    execution.add(entry.call);
  }

  /** The execution's results, once the journal holds every result it recorded. */
  async #results(execution: PlanExecution): Promise<ToolResult[]> {
    const results = await execution.results;
    await this.#options.journal?.flush();
    return results;
  }

  #started(): PlanExecution {
    this.#execution ??= this.#options.executor.start(this.#executionOptions(this.#options.safe));
    return this.#execution;
  }

  /** The plan execution's options: history, events, the journal's hooks, and holds when `hold`. */
  #executionOptions(hold: boolean): PlanExecutionOptions {
    const { emit, now, runId, round, signal, history, journal } = this.#options;
    const options: PlanExecutionOptions = { signal, history, runId };
    if (emit !== undefined) {
      options.onEvent = (event: ExecutorEvent) =>
        emit({ ...event, runId, round, executorAt: event.at, at: now() } as AgentEvent);
    }
    if (hold) options.hold = holdSideEffects;
    if (this.#options.approvals !== undefined) options.approvals = this.#options.approvals;
    if (journal !== undefined) {
      options.knownResult = journal.knownResult;
      options.onResult = journal.onResult;
    }
    return options;
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
