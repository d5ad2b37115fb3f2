import type {
  ExecutionRun,
  Executor,
  ExecutorEvent,
  ExecutorEventHandler,
  RunHistory,
  RunOptions,
} from '@mtpx/executor';
import type { ToolCallInput, ToolResult } from '@mtpx/protocol';
import { inspectToolCall } from '@mtpx/protocol/internal';
import { journalArgumentsHash } from './run-journal';
import type { RunJournalRecorder } from './run-journal-recorder';

/**
 * The executor as a journaled run sees it (internal): each call's result is recorded as
 * the call finishes, and a call the run finished before it was resumed — same id, same
 * arguments — is answered from the journal and never handed to the executor again. Its
 * result joins the round's history, so calls that `$ref` it resolve as before.
 * Scheduling is the executor's own: calls still start the moment their inputs exist.
 */
export function journaledExecutor(executor: Executor, recorder: RunJournalRecorder): Executor {
  const start = (options: RunOptions = {}): ExecutionRun =>
    new JournaledExecutionRun(executor, recorder, options);
  return {
    registry: executor.registry,
    // Whole plans are not the agent's path; they run unjournaled.
    execute: (plan, options) => executor.execute(plan, options),
    stream: (plan, options) => executor.stream(plan, options),
    executeToolCalls: (calls, options) => {
      const run = start(options);
      for (const call of calls) run.add(call);
      run.end();
      return run.results;
    },
    start,
  };
}

/** Where one added call's result comes from. */
type Slot = { result: ToolResult } | { position: number } | { held: ToolCallInput };

class JournaledExecutionRun implements ExecutionRun {
  readonly results: Promise<ToolResult[]>;
  readonly #inner: ExecutionRun;
  readonly #recorder: RunJournalRecorder;
  /** Earlier results plus calls answered from the journal: the inner run's history. */
  readonly #history: Map<string, ToolResult>;
  /** Ids of the calls added so far. */
  readonly #seen = new Set<string>();
  readonly #slots: Slot[] = [];
  /** Arguments hash of each call handed to the executor, by call id. */
  readonly #hashes = new Map<string, string>();
  #handed = 0;
  #ended = false;

  constructor(executor: Executor, recorder: RunJournalRecorder, options: RunOptions) {
    this.#recorder = recorder;
    this.#history = historyMap(options.history);
    const outer = options.onEvent;
    const onEvent: ExecutorEventHandler = (event) => {
      this.#observe(event);
      outer?.(event);
    };
    this.#inner = executor.start({ ...options, history: this.#history, onEvent });
    this.results = this.#collect();
  }

  get runId(): string | undefined {
    return this.#inner.runId;
  }

  get signal(): AbortSignal {
    return this.#inner.signal;
  }

  get events(): AsyncIterable<ExecutorEvent> {
    return this.#inner.events;
  }

  add(call: ToolCallInput): void {
    if (this.#ended) {
      this.#inner.add(call); // throws the executor's own `run_ended`
      return;
    }
    const inspection = inspectToolCall(call);
    const id = inspection.id;
    const args = (call as { arguments?: unknown } | null)?.arguments;
    const hash = id === undefined ? undefined : journalArgumentsHash(inspection.name, args);
    const reused = id !== undefined && (this.#seen.has(id) || this.#history.has(id));
    if (id !== undefined) this.#seen.add(id);
    // Only a well-formed call with a fresh id is answered from the journal; the executor
    // reports what is wrong with the others, as without a journal.
    const finished =
      id === undefined || hash === undefined || reused || inspection.issues.length > 0
        ? undefined
        : this.#recorder.finishedResult(id, hash);
    if (finished !== undefined && id !== undefined) {
      this.#slots.push({ result: finished });
      this.#history.set(id, finished);
      this.#release();
      return;
    }
    if (id !== undefined && hash !== undefined && !this.#hashes.has(id)) this.#hashes.set(id, hash);
    const targets = inspection.call
      ? [...inspection.call.depends_on, ...inspection.refTargets]
      : inspection.refTargets;
    // A call naming one not added yet waits here, in case that one is answered from the
    // journal (the executor would otherwise wait for it forever).
    if (targets.some((target) => !this.#seen.has(target) && !this.#history.has(target))) {
      this.#slots.push({ held: call });
      return;
    }
    this.#slots.push({ position: -1 });
    this.#hand(this.#slots.length - 1, call);
    this.#release();
  }

  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#slots.forEach((slot, index) => {
      if ('held' in slot) this.#hand(index, slot.held);
    });
    this.#inner.end();
  }

  cancel(reason?: unknown): void {
    this.#inner.cancel(reason);
  }

  /** Hands the call in slot `index` to the executor. */
  #hand(index: number, call: ToolCallInput): void {
    this.#slots[index] = { position: this.#handed++ };
    this.#inner.add(call);
  }

  /** Hands over held calls whose targets have all been added. */
  #release(): void {
    this.#slots.forEach((slot, index) => {
      if (!('held' in slot)) return;
      const inspection = inspectToolCall(slot.held);
      const targets = [...(inspection.call?.depends_on ?? []), ...inspection.refTargets];
      if (targets.every((target) => this.#seen.has(target) || this.#history.has(target))) {
        this.#hand(index, slot.held);
      }
    });
  }

  /** Records each result as its call finishes; a cancelled call is not finished. */
  #observe(event: ExecutorEvent): void {
    if (event.type !== 'call-finished' || event.result.error_code === 'cancelled') return;
    const hash = this.#hashes.get(event.callId);
    if (hash !== undefined) this.#recorder.recordCall(event.callId, hash, event.result);
  }

  async #collect(): Promise<ToolResult[]> {
    const results = await this.#inner.results;
    await this.#recorder.flush();
    return this.#slots.map((slot) =>
      'result' in slot ? slot.result : results[(slot as { position: number }).position],
    ) as ToolResult[];
  }
}

function historyMap(history: RunHistory | undefined): Map<string, ToolResult> {
  if (history === undefined) return new Map();
  if (history instanceof Map) return new Map(history);
  return new Map(Object.entries(history as Readonly<Record<string, ToolResult>>));
}
