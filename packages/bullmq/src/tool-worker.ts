import { type AnyTool, type RetryBackoff, type Toolkit, ToolRegistry } from '@mtpx/executor';
import { ArgumentValidator } from '@mtpx/executor/internal';
import { type Job, UnrecoverableError, Worker } from 'bullmq';
import type { CallStop } from './call-stop';
import {
  bullConnection,
  invalid,
  ownClient,
  type QueueLocation,
  resolveLocation,
} from './queue-names';
import { RetryableCallError, retryDelayOf } from './retry-delay';
import { type CallJobData, type CallJobResult, parseJobData } from './wire';
import { runAttempt } from './worker-call';
import { CallsInFlight, closeGraceMs, handBack, type ToolWorkerClosed } from './worker-shutdown';

const cancelledMessage = 'The run cancelled this call.';

/** Options of {@link startToolWorker}. */
export interface ToolWorkerOptions extends QueueLocation {
  /** The tools (and toolkits) this worker runs: ordinary `defineTool` definitions. */
  tools: ReadonlyArray<AnyTool | Toolkit>;
  /** Calls this process runs at once. Default 8. */
  concurrency?: number;
  /**
   * How long a call's lock lives without renewal, in milliseconds (BullMQ's `lockDuration`;
   * a live worker renews it every half of it). When a worker dies mid-call, another
   * worker takes the call up again once the lock has expired and its next stall check
   * runs — within about 1.5 × this. Default 30,000; tests use 1,000 or so. Too low for a
   * loaded machine, and a call whose worker is merely slow runs twice (its first answer
   * is then refused, so it still has one result).
   */
  stallTimeoutMs?: number;
  /** How often a call may be taken up again after its worker died, before it fails. Default 2. */
  maxStalls?: number;
  /** Waits between retries of retryable failures (the tool's `retries`). */
  retryBackoff?: RetryBackoff;
  /** Receives the worker's infrastructure errors (lost connection, lost lock). Default: `console.error`. */
  onError?: (error: Error) => void;
  /**
   * How long a closing worker lets its running calls finish, in milliseconds; those still
   * running then are handed back to the queue (their `signal` aborts; another worker runs
   * them). Default 25,000 (below Kubernetes' 30 s grace period). `close({ deadlineMs })`
   * overrides it.
   */
  shutdownDeadlineMs?: number;
  /**
   * Signals on which the worker closes gracefully ({@link ToolWorker.close}); when it has
   * closed, the signal is raised again if nothing else listened for it, so the process ends
   * as it would have (a handler of your own keeps that decision). A second signal while closing hands the running calls back at once.
   * Default `['SIGTERM', 'SIGINT']`; `[]` installs no handler.
   */
  shutdownSignals?: readonly NodeJS.Signals[];
}

/** Options of {@link ToolWorker.close}. */
export interface ToolWorkerCloseOptions {
  /** In place of `shutdownDeadlineMs`: how long running calls may take before they are handed back. */
  deadlineMs?: number;
}

/** A running worker, made by {@link startToolWorker}. */
export interface ToolWorker {
  /** The BullMQ worker underneath (for its events and metrics). */
  readonly worker: Worker<CallJobData, CallJobResult>;
  /**
   * Stops taking calls at once, lets the running ones finish until the deadline, hands back
   * those still running then (to the front of the queue, their attempts unchanged: no call
   * lost, none answered twice), and disconnects. Resolves with what it did; a second call
   * joins the first (a shorter deadline then applies).
   */
  close(options?: ToolWorkerCloseOptions): Promise<ToolWorkerClosed>;
}

/**
 * Starts a worker that runs the calls remote tools ({@link createRemoteTools}) enqueue, in
 * this process: start as many processes, on as many machines, as you like. Each call runs
 * its tool as the in-process executor would (arguments parsed by the tool's schema, its
 * `timeout_ms`, progress reports carried back), with the orchestrator's
 * `context.idempotencyKey`; `context.attempt` counts BullMQ's attempts. A cancelled call's
 * `signal` aborts. Resolves once it is connected and listening for cancellations.
 *
 * @example
 * ```ts source="./remote-tools.examples.ts#startToolWorker"
 * const worker = await startToolWorker({
 *   connection: { host: '127.0.0.1', port: 6379 },
 *   tools: [search],
 *   concurrency: 8,
 * });
 * // SIGTERM and SIGINT close it gracefully; or, in your own shutdown:
 * await worker.close({ deadlineMs: 10_000 });
 * ```
 */
export async function startToolWorker(options: ToolWorkerOptions): Promise<ToolWorker> {
  const location = resolveLocation(options);
  const concurrency = options.concurrency ?? 8;
  const stallTimeoutMs = options.stallTimeoutMs ?? 30_000;
  const maxStalls = options.maxStalls ?? 2;
  if (!(Number.isInteger(concurrency) && concurrency >= 1)) {
    throw invalid(`concurrency must be a positive integer, got ${String(concurrency)}.`);
  }
  if (!(Number.isInteger(stallTimeoutMs) && stallTimeoutMs >= 200)) {
    throw invalid(
      `stallTimeoutMs must be an integer of at least 200, got ${String(stallTimeoutMs)}.`,
    );
  }
  if (!(Number.isInteger(maxStalls) && maxStalls >= 1)) {
    throw invalid(`maxStalls must be a positive integer, got ${String(maxStalls)}.`);
  }
  const shutdownDeadlineMs = checkDeadline(options.shutdownDeadlineMs ?? 25_000);
  const shutdownSignals = options.shutdownSignals ?? ['SIGTERM', 'SIGINT'];
  const inFlight = new CallsInFlight();
  const registry = new ToolRegistry(options.tools);
  const validator = new ArgumentValidator();
  const client = ownClient(location.connection);
  const subscriber = ownClient(location.connection);
  const onError =
    options.onError ?? ((error: Error) => console.error('[@mtpx/bullmq worker]', error));
  client.on('error', onError);
  subscriber.on('error', onError);

  /** One attempt of a call, from its job to its answer (stops via `stop`). */
  const runJob = async (
    job: Job<CallJobData, CallJobResult>,
    stop: CallStop,
  ): Promise<CallJobResult> => {
    let data: CallJobData;
    try {
      data = parseJobData(job.data);
    } catch (error) {
      throw new UnrecoverableError((error as Error).message);
    }
    // A call taken up again (after a stall, a retry or a hand-back) may have been cancelled meanwhile.
    if (job.attemptsStarted > 1 && job.id !== undefined) {
      if ((await client.get(location.cancelledKey(job.id))) === String(job.timestamp)) {
        throw new UnrecoverableError(cancelledMessage);
      }
    }
    const tool = registry.get(data.tool) ?? (await registry.resolve(data.tool));
    if (tool === undefined) {
      const message = `No worker tool is named "${data.tool}"; this worker runs: ${registry
        .list()
        .map((spec) => spec.name)
        .join(', ')}.`;
      return { ok: false, code: 'unknown_tool', message };
    }
    const attempt = job.attemptsMade + 1;
    const outcome = await runAttempt(tool, data, {
      attempt,
      stop,
      validator,
      reportProgress: (progress) => {
        job.updateProgress(progress).catch(() => {}); // progress is advisory
      },
    });
    if (outcome.retryable && attempt < (job.opts.attempts ?? 1)) {
      throw new RetryableCallError(outcome.result.message, outcome.retryAfterMs);
    }
    return outcome.result;
  };

  // Two parameters, no third: BullMQ then makes no AbortController per job (the stop does).
  const processor = async (
    job: Job<CallJobData, CallJobResult>,
    token?: string,
  ): Promise<CallJobResult> => {
    const jobId = job.id as string;
    const stop = inFlight.begin(jobId);
    let result: CallJobResult | undefined;
    let failure: { error: unknown } | undefined;
    try {
      result = await runJob(job, stop);
    } catch (error) {
      failure = { error };
    }
    // Synchronously after the attempt: a call handed back by a closing worker is not
    // answered; a cancelled one fails its job (it has no answer: a later dispatch runs it afresh).
    const stopped = inFlight.finish(jobId);
    if (stopped === 'handed-back') return handBack(job, token);
    if (stopped === 'cancelled') throw new UnrecoverableError(cancelledMessage);
    if (failure !== undefined) throw failure.error;
    return result as CallJobResult;
  };

  const worker = new Worker<CallJobData, CallJobResult>(location.queue, processor, {
    connection: bullConnection(location),
    prefix: location.prefix,
    concurrency,
    lockDuration: stallTimeoutMs,
    stalledInterval: Math.max(100, Math.floor(stallTimeoutMs / 2)),
    maxStalledCount: maxStalls,
    settings: { backoffStrategy: retryDelayOf(options.retryBackoff) },
  });
  worker.on('error', onError);
  subscriber.on('message', (channel: string, jobId: string) => {
    if (channel === location.cancelChannel) inFlight.cancel(jobId);
  });
  await subscriber.subscribe(location.cancelChannel);
  await worker.waitUntilReady();

  let closed: Promise<ToolWorkerClosed> | undefined;
  const handBackAfter = (deadlineMs: number) => {
    const timer = setTimeout(() => inFlight.handBackAll(), deadlineMs);
    return () => clearTimeout(timer);
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (closed !== undefined) return inFlight.handBackAll(); // a second signal: now
    // Others listening for it own the process's end; alone, the signal ends it once closed.
    const alone = process.listenerCount(signal) === 1;
    void close().then(() => {
      if (alone && process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    });
  };
  for (const signal of shutdownSignals) process.on(signal, onSignal);
  const close = (closeOptions: ToolWorkerCloseOptions = {}): Promise<ToolWorkerClosed> => {
    const deadlineMs = checkDeadline(closeOptions.deadlineMs ?? shutdownDeadlineMs);
    if (closed !== undefined) {
      const stop = handBackAfter(deadlineMs);
      return closed.finally(stop);
    }
    for (const signal of shutdownSignals) process.off(signal, onSignal);
    inFlight.closing();
    const stop = handBackAfter(deadlineMs);
    closed = (async () => {
      // Takes no new call; waits for the running ones (or their hand-back). With Redis
      // unreachable BullMQ may never finish closing: past the deadline and a grace, the
      // connections are dropped (calls not handed back are then moved back by the stall check).
      let grace: ReturnType<typeof setTimeout> | undefined;
      const dropped = new Promise<'dropped'>((resolve) => {
        grace = setTimeout(() => resolve('dropped'), deadlineMs + closeGraceMs);
      });
      try {
        if ((await Promise.race([worker.close(), dropped])) === 'dropped') {
          await Promise.race([worker.disconnect().catch(() => {}), dropped]);
        }
        await Promise.race([Promise.allSettled([subscriber.quit(), client.quit()]), dropped]);
      } finally {
        clearTimeout(grace);
        stop();
        subscriber.disconnect();
        client.disconnect();
      }
      return inFlight.report;
    })();
    return closed;
  };
  return { worker, close };
}

function checkDeadline(deadlineMs: number): number {
  if (!(Number.isInteger(deadlineMs) && deadlineMs >= 0)) {
    throw invalid(
      `A shutdown deadline must be a non-negative integer of milliseconds, got ${String(deadlineMs)}.`,
    );
  }
  return deadlineMs;
}
