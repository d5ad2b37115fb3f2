import type { Executor } from '@mtpx/executor';
import {
  type AssistantMessage,
  type AssistantToolCall,
  type Message,
  MtpxError,
  type Provider,
  type ProviderTurn,
  serverToolParts,
  type ToolResult,
  type ToolSpec,
  toolMessageFromResult,
} from '@mtpx/protocol';
import type { AgentEvent, AgentEventHandler } from '../events/agent-events';
import { boundedMessage } from '../bounded-calls';
import type { EagerDispatch } from '../eager-dispatch';
import { journaledExecutor } from '../journaled-executor';
import { CallBudget, RoundCalls } from '../round-calls';
import type { JournaledCall, JournaledRun, RunJournal } from '../run-journal';
import { RunJournalRecorder, type RunProgress } from '../run-journal-recorder';
import {
  addUsage,
  emptyUsage,
  type RoundReasoning,
  type RunOutput,
  type StopReason,
} from './run-output';
import { errorMessage, runRecord } from '../session/run-record';
import { resumePoint } from '../run-resume';
import { newSession, type RunRecord, type Session, type SessionStore } from '../session/session';
import { type PartialTurn, type StreamedTurnOptions, streamTurn } from './streamed-turn';

/** How an agent runs (fixed per agent, with per-run overrides applied). */
export interface RunSettings {
  provider: Provider;
  executor: Executor;
  /** The system message (built-in instructions and the agent's own), if any. */
  systemPrompt: string | undefined;
  /** The tool specs to offer the model, as the provider should see them. */
  toolSpecs: () => Promise<ToolSpec[]>;
  maxRounds: number;
  toolCallLimit: number;
  /** Model turns streamed (`stream()`) or whole (`run()`). */
  streaming: boolean;
  /** When streamed calls start, and whether write calls wait for a normal finish. */
  eagerDispatch: EagerDispatch;
  sessionStore: SessionStore;
  agentName: string | undefined;
  /** Where the run is journaled so that it can be resumed, if anywhere. */
  journal: RunJournal | undefined;
}

/** One run's request. */
export interface RunRequest {
  runId: string;
  input: string;
  signal: AbortSignal;
  sessionId: string | undefined;
  userId: string | undefined;
  onEvent: AgentEventHandler | undefined;
  /** The run's journal entry and finished calls, when this is `agent.resume`. */
  resumed?: { run: JournaledRun; calls: JournaledCall[] };
}

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
  #session: Session | undefined;
  #saveAttempted = false;
  #failedRoundResults: ToolResult[] = [];
  #journal: RunJournalRecorder | undefined;
  /** A resumed run's last model turn, whose calls run (or are answered) first. */
  #resumedTurn: AssistantMessage | undefined;

  constructor(settings: RunSettings, request: RunRequest) {
    this.#settings = settings;
    this.#request = request;
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
    const { input, runId, sessionId, userId, signal } = this.#request;
    const { provider, agentName, streaming, eagerDispatch } = this.#settings;
    this.#emit?.({
      type: 'run-started',
      runId,
      at: this.#now(),
      input,
      provider: provider.name,
      model: provider.model,
      ...(agentName === undefined ? {} : { agentName }),
      streaming,
      eagerDispatch: streaming && eagerDispatch !== false,
      ...(sessionId === undefined ? {} : { sessionId }),
      ...(userId === undefined ? {} : { userId }),
      ...(this.#request.resumed === undefined ? {} : { resumed: true }),
    });
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
      output = this.#output(stopReason);
      await this.#saveSession(stopReason);
    } catch (error) {
      await this.#fail(error);
      throw error;
    }
    const durationMs = this.#now();
    if (output.stop_reason === 'cancelled') {
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
    const { signal, runId } = this.#request;
    const executor =
      this.#journal === undefined
        ? this.#settings.executor
        : journaledExecutor(this.#settings.executor, this.#journal);
    const budget = new CallBudget(this.#settings.toolCallLimit, this.#toolResults.length);
    const toolNames = tools.map((tool) => tool.name);
    for (;;) {
      if (signal.aborted) return 'cancelled';
      const round = ++this.#rounds;
      const roundStart = this.#now();
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
        tools: toolNames,
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
        emit: this.#emit,
        now: this.#now,
      });
      const partial: PartialTurn = { text: '' };
      const request = { messages, tools, signal };
      const streamOptions: StreamedTurnOptions = {
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
            ? await streamTurn(provider, request, streamOptions)
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
      if (!streamOptions.serverToolsReported) this.#reportServerTools(round, turn);
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
        await this.#journal?.turnTaken(this.#progress());
      } catch (error) {
        // Without its turn journaled the round cannot go on: its calls are cancelled.
        this.#failedRoundResults = await calls.abort(error);
        throw error;
      }
      const toolCalls = message.tool_calls ?? [];
      if (!refused && toolCalls.length > 0) {
        results = await calls.finish(toolCalls, turn.finishReason);
      }
      this.#recordResults(results);
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
      if (refused) return 'refusal';
      if (toolCalls.length === 0) return 'final';
      if (signal.aborted) return 'cancelled';
      if (calls.refused) return 'tool_call_limit';
      if (round >= maxRounds) return 'max_rounds';
    }
  }

  /** A whole turn's server tool blocks as `server-tool-used` (a stream reports its own). */
  #reportServerTools(round: number, turn: ProviderTurn): void {
    const emit = this.#emit;
    if (emit === undefined) return;
    for (const part of serverToolParts(turn.message.provider_parts)) {
      const { id, name } = part.server_tool ?? {};
      emit({
        type: 'server-tool-used',
        runId: this.#request.runId,
        at: this.#now(),
        round,
        blockType: part.type,
        ...(id === undefined ? {} : { id }),
        ...(name === undefined ? {} : { name }),
      });
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

  /**
   * A turn that broke off (cancelled, or the stream failed) after some calls were ready:
   * the conversation keeps those calls — some may have run — each answered by its result,
   * so it stays truthful and valid for the next run. Calls never completed are dropped.
   */
  #recordBrokenTurn(
    text: string,
    toolCalls: AssistantToolCall[],
    results: readonly ToolResult[],
  ): void {
    if (toolCalls.length === 0) return;
    const message: AssistantMessage = {
      role: 'assistant',
      content: text === '' ? null : text,
      tool_calls: toolCalls,
    };
    this.#messages.push(message);
    this.#recordResults(results);
  }

  #output(stopReason: StopReason): RunOutput {
    const output: RunOutput = {
      run_id: this.#request.runId,
      final_text: this.#finalText,
      messages: [...this.#messages],
      tool_results: [...this.#toolResults],
      rounds: this.#rounds,
      usage: this.#usage,
      stop_reason: stopReason,
    };
    if (this.#request.sessionId !== undefined) output.session_id = this.#request.sessionId;
    if (this.#reasoning.length > 0) output.reasoning = [...this.#reasoning];
    if (stopReason === 'refusal' && this.#refusal !== undefined) output.refusal = this.#refusal;
    return output;
  }

  async #loadSession(): Promise<void> {
    const { sessionId, userId } = this.#request;
    if (sessionId === undefined) return;
    const stored = await this.#settings.sessionStore.get(
      sessionId,
      userId === undefined ? {} : { userId },
    );
    const session = stored ?? newSession(sessionId, userId);
    this.#session = session;
    this.#messages.push(...session.messages);
    this.#rememberSessionResults(session);
  }

  #rememberSessionResults(session: Session): void {
    for (const run of session.runs) {
      for (const result of run.tool_results) {
        if (result.call_id !== '') this.#history.set(result.call_id, result);
      }
    }
  }

  /** A resumed run picks up where its journal left it: after its last model turn. */
  #restore(run: JournaledRun): void {
    this.#startedIso = run.started_at;
    this.#session = run.session;
    if (run.session !== undefined) this.#rememberSessionResults(run.session);
    const point = resumePoint(run);
    this.#rounds = point.rounds;
    this.#resumedTurn = point.resumedTurn;
    this.#messages.push(...point.messages);
    this.#usage = run.usage;
    this.#finalText = run.final_text;
    for (const result of run.tool_results) this.#remember(result);
  }

  /** Journals a new run, or claims a resumed one (a second process resuming it then loses). */
  async #startJournal(): Promise<void> {
    const { journal } = this.#settings;
    if (journal === undefined) return;
    const resumed = this.#request.resumed;
    if (resumed !== undefined) {
      this.#journal = new RunJournalRecorder(journal, resumed.run, resumed.calls);
      await this.#journal.save({});
      return;
    }
    this.#journal = await RunJournalRecorder.begin(journal, {
      ...this.#request,
      ...this.#settings,
      session: this.#session,
      progress: this.#progress(),
      startedAt: this.#startedIso,
    });
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

  async #saveSession(stopReason: StopReason | undefined, error?: unknown): Promise<void> {
    const session = this.#session;
    if (session === undefined) {
      await this.#endJournal(this.#runRecord(stopReason, error), error);
      return;
    }
    this.#saveAttempted = true;
    const record = this.#runRecord(stopReason, error);
    await this.#endJournal(record, error);
    await this.#settings.sessionStore.save({
      ...session,
      messages: [...this.#messages],
      runs: [...session.runs, record],
      updated_at: record.finished_at,
    });
    // Compare-and-swap: the stored copy is now one version further.
    session.version = (session.version ?? 0) + 1;
  }

  /** The journal learns the run ended before the session does: a crash between the two is resumed as ended. */
  async #endJournal(record: RunRecord, error: unknown): Promise<void> {
    const ended = this.#journal?.ended(this.#progress(), record);
    // A failed run keeps its own error; the journal's is secondary.
    if (error === undefined) await ended;
    else await ended?.catch(() => {});
  }

  #runRecord(stopReason: StopReason | undefined, error: unknown): RunRecord {
    return runRecord({
      ...this.#request,
      ...this.#progress(),
      startedAt: this.#startedIso,
      stopReason,
      error,
    });
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
    if (
      this.#saveAttempted ||
      (MtpxError.isInstance(error) && error.code === 'run_journal_conflict')
    )
      return;
    // Keep what happened (calls may have run) in the session; the run's own error wins.
    await this.#saveSession(undefined, error).catch(() => {});
  }
}

/**
 * A refused turn's message with only the calls that `results` answer (no `tool_calls` when
 * none), and those answers: each kept call paired with one result of its id, in order, so
 * the conversation holds exactly one answer per call even when ids repeat or are unusable.
 */
function keepAnsweredCalls(
  message: AssistantMessage,
  results: readonly ToolResult[],
): { message: AssistantMessage; results: ToolResult[] } {
  const unused = [...results];
  const kept: NonNullable<AssistantMessage['tool_calls']> = [];
  const answers: ToolResult[] = [];
  for (const call of message.tool_calls ?? []) {
    const index = unused.findIndex((result) => result.call_id === call.id);
    if (index < 0) continue;
    kept.push(call);
    answers.push(...unused.splice(index, 1));
  }
  const { tool_calls: _calls, ...rest } = message;
  return { message: kept.length > 0 ? { ...rest, tool_calls: kept } : rest, results: answers };
}
