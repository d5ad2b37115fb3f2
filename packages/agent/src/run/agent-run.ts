import {
  type AssistantMessage,
  type AssistantToolCall,
  type Message,
  MtpxError,
  type ProviderTurn,
  type ToolResult,
  type ToolSpec,
  toolMessageFromResult,
} from '@mtpx/protocol';
import { journalWaiting } from '../approvals/approval-resume';
import { type RunApprovals, runApprovalsOf } from '../approvals/run-approvals';
import type { AgentEvent } from '../events/agent-events';
import { runStartedEvent } from '../events/run-started';
import type { JournaledRun } from '../journal/run-journal';
import type { RunProgress } from '../journal/run-journal-recorder';
import { resumePoint } from '../journal/run-resume';
import { errorMessage } from '../session/run-record';
import { roundToolsOf } from '../tool-search/round-tools';
import { boundedMessage } from './bounded-calls';
import { followSignal } from './follow-signal';
import {
  type ModelTurnStreamOptions,
  type PartialTurn,
  reportServerTools,
  streamModelTurn,
} from './model-turn-stream';
import { CallBudget, RoundCalls } from './round-calls';
import {
  addUsage,
  emptyUsage,
  type RoundReasoning,
  type RunOutput,
  runOutput,
  type StopReason,
} from './run-output';
import type { RunRequest, RunSettings } from './run-settings';
import { RunStorage, sessionResults } from './run-storage';
import { brokenTurnMessage, keepAnsweredCalls } from './turn-messages';

/**
 * One run of the loop: model turn → tool calls → executor → tool messages → next round,
 * until the model answers in text or a limit stops it (a stop reason, not an exception).
 * Only infrastructure failures reject: the provider's error (unwrapped) or a session
 * store's; a model's mistakes are error tool results it reads in the next round.
 */
export class AgentRun {
  readonly #settings: RunSettings;
  readonly #request: RunRequest;
  #startedAt = performance.now();
  #startedIso = new Date().toISOString();
  readonly #emit: ((event: AgentEvent) => void) | undefined;
  readonly #messages: Message[] = [];
  readonly #toolResults: ToolResult[] = [];
  readonly #history = new Map<string, ToolResult>();
  #lastAt = 0;
  #usage = emptyUsage();
  #rounds = 0;
  #finalText = '';
  readonly #reasoning: RoundReasoning[] = [];
  #refusal: string | undefined;
  #failedRoundResults: ToolResult[] = [];
  readonly #storage: RunStorage;
  /** A resumed run's last model turn, whose calls run (or are answered) first. */
  #resumedTurn: AssistantMessage | undefined;
  /** Aborted by the caller's signal, or when the run's lease is lost: every call and model turn watches it. */
  readonly #controller = new AbortController();
  #detach: (() => void) | undefined;
  /** Decisions brought by a resume, and calls left for a person (a journaled run). */
  readonly #approvals: RunApprovals | undefined;

  constructor(settings: RunSettings, request: RunRequest) {
    this.#settings = settings;
    this.#request = request;
    const { runId, input, sessionId, userId } = request;
    const { sessionStore, journal, lease } = settings;
    const controller = this.#controller;
    this.#detach = followSignal(request.signal, controller);
    this.#storage = new RunStorage({
      runId,
      input,
      sessionId,
      userId,
      sessionStore,
      journal,
      lease,
      onFatal: (error) => controller.abort(error),
    });
    if (request.resumed?.lease !== undefined) this.#storage.holdLease(request.resumed.lease);
    this.#approvals = runApprovalsOf(settings, request);
    const handler = request.onEvent;
    this.#emit =
      handler === undefined
        ? undefined
        : (event) => {
            try {
              handler(event);
            } catch {
              // A listener's failure must not change the run.
            }
          };
  }

  /** Milliseconds since the run started, never decreasing. */
  readonly #now = (): number => {
    const at = performance.now() - this.#startedAt;
    if (at > this.#lastAt) this.#lastAt = at;
    return this.#lastAt;
  };

  /** Runs the loop to its end. */
  async execute(): Promise<RunOutput> {
    // The clock starts now: a run queued behind another of its session has not started.
    this.#startedAt = performance.now();
    this.#startedIso = new Date().toISOString();
    const { input, runId } = this.#request;
    const signal = this.#controller.signal;
    this.#emit?.(runStartedEvent(this.#settings, this.#request, this.#now()));
    let output: RunOutput;
    try {
      const resumed = this.#request.resumed;
      if (resumed === undefined) {
        await this.#loadSession();
        this.#messages.push({ role: 'user', content: input });
      } else {
        this.#restore(resumed.run);
      }
      await this.#startJournal();
      const tools = await this.#settings.toolSpecs();
      const stopReason = await this.#loop(tools);
      // A run that lost its lease (or its journal) stops with that error, whatever its loop made of the abort.
      if (this.#storage.failedFatally) throw await this.#storage.fatalError();
      output = this.#output(stopReason);
      const progress = this.#progress();
      if (stopReason === 'awaiting_approval') {
        await journalWaiting(this.#storage.recorder, progress, this.#approvals?.pending() ?? []);
      } else await this.#storage.save({ progress, startedAt: this.#startedIso, stopReason });
    } catch (thrown) {
      const error = this.#storage.failedFatally
        ? ((await this.#storage.fatalError()) ?? thrown)
        : thrown;
      await this.#fail(error);
      await this.#storage.releaseLease();
      this.#detach?.();
      throw error;
    }
    await this.#storage.releaseLease();
    this.#detach?.();
    const durationMs = this.#now();
    if (output.stopReason === 'cancelled') {
      this.#emit?.({
        type: 'run-cancelled',
        runId,
        at: durationMs,
        output,
        reason: signal.reason,
        durationMs,
      });
    } else {
      this.#emit?.({ type: 'run-finished', runId, at: durationMs, output, durationMs });
    }
    return output;
  }

  async #loop(tools: ToolSpec[]): Promise<StopReason> {
    const { provider, systemPrompt, streaming, maxRounds } = this.#settings;
    const { runId } = this.#request;
    const signal = this.#controller.signal;
    const journal = this.#storage.recorder;
    const { executor } = this.#settings;
    const budget = new CallBudget(this.#settings.toolCallLimit, this.#toolResults.length);
    for (;;) {
      if (signal.aborted) return 'cancelled';
      const round = ++this.#rounds;
      const roundStart = this.#now();
      // With tool search, each round offers the tools found so far (from the results).
      const offered = roundToolsOf(this.#settings.toolSearch, tools, this.#history);
      const messages: Message[] =
        systemPrompt === undefined
          ? [...this.#messages]
          : [{ role: 'system', content: systemPrompt }, ...this.#messages];
      this.#emit?.({
        type: 'round-started',
        runId,
        at: roundStart,
        round,
        messageCount: messages.length,
        tools: offered.tools.map((tool) => tool.name),
      });
      const calls = new RoundCalls({
        executor,
        history: this.#history,
        signal,
        runId,
        round,
        eager: streaming && this.#settings.eagerDispatch !== false,
        safe: this.#settings.eagerDispatch === 'safe',
        budget,
        journal,
        approvals: this.#approvals?.forRound(round),
        emit: this.#emit,
        now: this.#now,
        refuse: offered.refuse,
      });
      const partial: PartialTurn = { text: '' };
      const request = { messages, tools: offered.tools, ...offered.deferred, signal };
      const streamOptions: ModelTurnStreamOptions = {
        calls,
        partial,
        runId,
        round,
        emit: this.#emit,
        now: this.#now,
      };
      let turn: ProviderTurn;
      const resumedTurn = this.#resumedTurn;
      this.#resumedTurn = undefined;
      try {
        turn = resumedTurn
          ? {
              message: resumedTurn,
              finishReason: resumedTurn.tool_calls?.length ? 'tool_calls' : 'stop',
            }
          : streaming
            ? await streamModelTurn(provider, request, streamOptions)
            : await provider.generate(request);
      } catch (error) {
        const results = await calls.abort(error);
        this.#recordBrokenTurn(partial.text, calls.readyCalls(), results);
        if (signal.aborted) return 'cancelled';
        this.#failedRoundResults = results;
        throw error;
      }
      const modelMs = this.#now() - roundStart;
      this.#usage = addUsage(this.#usage, turn.usage);
      if (!streamOptions.serverToolsReported) reportServerTools(turn, streamOptions);
      if (turn.reasoning !== undefined) this.#reasoning.push({ round, text: turn.reasoning });
      // Out-of-bounds calls are replaced before anything keeps or walks them.
      let message = boundedMessage(turn.message, (call) => calls.bounded(call));
      this.#finalText = message.content ?? '';
      const refused = turn.finishReason === 'refusal';
      let results: ToolResult[] = [];
      if (refused) {
        this.#refusal = turn.refusal ?? message.content ?? '';
        // A refused turn's calls never run: any already handed over are cancelled, and
        // the conversation keeps only the calls that have a result to answer them.
        const aborted = await calls.abort(new Error('the model refused this turn'));
        ({ message, results } = keepAnsweredCalls(message, aborted));
      }
      this.#messages.push(message);
      try {
        await this.#storage.recorder?.turnTaken(this.#progress());
      } catch (error) {
        // Without its turn journaled the round cannot go on: its calls are cancelled.
        this.#failedRoundResults = await calls.abort(error);
        throw error;
      }
      const toolCalls = message.tool_calls ?? [];
      if (!refused && toolCalls.length > 0) {
        results = await calls.finish(toolCalls, turn.finishReason);
      }
      const waiting = this.#approvals?.hasPending === true && !signal.aborted;
      if (!waiting) this.#recordResults(results);
      const at = this.#now();
      this.#emit?.({
        type: 'round-finished',
        runId,
        at,
        round,
        message,
        finishReason: turn.finishReason,
        ...(turn.usage === undefined ? {} : { usage: turn.usage }),
        ...(turn.reasoning === undefined ? {} : { reasoning: turn.reasoning }),
        ...(refused && this.#refusal ? { refusal: this.#refusal } : {}),
        modelMs,
        durationMs: at - roundStart,
        toolResults: results,
      });
      if (waiting) return 'awaiting_approval';
      if (refused) return 'refusal';
      if (toolCalls.length === 0) return 'final';
      if (signal.aborted) return 'cancelled';
      if (calls.refused) return 'tool_call_limit';
      if (round >= maxRounds) return 'max_rounds';
    }
  }

  /** Answers each call with its tool message, and remembers the results for `$ref`s. */
  #recordResults(results: readonly ToolResult[]): void {
    for (const result of results) {
      this.#messages.push(toolMessageFromResult(result));
      this.#remember(result);
    }
  }

  #remember(result: ToolResult): void {
    this.#toolResults.push(result);
    if (result.call_id !== '' && !this.#history.has(result.call_id)) {
      this.#history.set(result.call_id, result);
    }
  }

  /** Keeps a broken-off turn's ready calls, each answered by its result (see {@link brokenTurnMessage}). */
  #recordBrokenTurn(
    text: string,
    toolCalls: AssistantToolCall[],
    results: readonly ToolResult[],
  ): void {
    const message = brokenTurnMessage(text, toolCalls);
    if (message === undefined) return;
    this.#messages.push(message);
    this.#recordResults(results);
  }

  #output(stopReason: StopReason): RunOutput {
    const { runId, sessionId } = this.#request;
    return runOutput({
      runId,
      finalText: this.#finalText,
      messages: [...this.#messages],
      toolResults: [...this.#toolResults],
      rounds: this.#rounds,
      usage: this.#usage,
      stopReason,
      ...(sessionId === undefined ? {} : { sessionId }),
      ...(this.#reasoning.length > 0 ? { reasoning: [...this.#reasoning] } : {}),
      ...(stopReason === 'refusal' && this.#refusal !== undefined
        ? { refusal: this.#refusal }
        : {}),
      ...this.#approvals?.outputFields(stopReason),
    });
  }

  async #loadSession(): Promise<void> {
    const session = await this.#storage.loadSession();
    if (session === undefined) return;
    this.#messages.push(...session.messages);
    sessionResults(session, this.#history);
  }

  /** A resumed run picks up where its journal left it: after its last model turn. */
  #restore(run: JournaledRun): void {
    this.#startedIso = run.started_at;
    const session = this.#storage.restoreSession(run);
    if (session !== undefined) sessionResults(session, this.#history);
    const point = resumePoint(run);
    this.#rounds = point.rounds;
    this.#resumedTurn = point.resumedTurn;
    this.#messages.push(...point.messages);
    this.#usage = run.usage;
    this.#finalText = run.final_text;
    for (const result of run.tool_results) this.#remember(result);
  }

  /** Journals a new run, or claims a resumed one. */
  async #startJournal(): Promise<void> {
    const resumed = this.#request.resumed;
    if (resumed !== undefined) {
      await this.#storage.claimJournal(resumed);
      return;
    }
    await this.#storage.beginJournal(this.#settings, this.#progress(), this.#startedIso);
  }

  #progress(): RunProgress {
    return {
      messages: [...this.#messages],
      rounds: this.#rounds,
      usage: this.#usage,
      tool_results: [...this.#toolResults],
      final_text: this.#finalText,
    };
  }

  async #fail(error: unknown): Promise<void> {
    const code = MtpxError.isInstance(error) ? error.code : undefined;
    const at = this.#now();
    this.#emit?.({
      type: 'run-failed',
      runId: this.#request.runId,
      at,
      error,
      ...(code === undefined ? {} : { code }),
      message: errorMessage(error),
      round: this.#rounds,
      toolResults: this.#failedRoundResults,
      durationMs: at,
    });
    // A run that lost its journal entry to another process leaves the session to that one.
    await this.#storage.saveFailed(
      { progress: this.#progress(), startedAt: this.#startedIso },
      error,
    );
  }
}
