import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { AgentError } from '../agent-error';
import type { RunJournal } from './run-journal';
import { DEFAULT_LEASE_TTL_MS, leaseLost, type RunLease, RunLeaseError } from './run-lease';

/** How an agent takes its runs' leases (`createAgent({ lease })`). */
export interface AgentLeaseOptions {
  /**
   * How long a lease lasts unless renewed, in milliseconds. It is renewed every third of
   * that while the run lives; a process that cannot renew it for that long (paused,
   * starved, cut off from the journal) stops the run. Default 30,000.
   */
  ttlMs?: number;
  /**
   * Names this process in `run_lease_held` errors (default `host:pid`); each acquisition
   * adds a suffix of its own, so two runs of one process never share a lease.
   */
  holder?: string;
}

/** The settings a run takes its lease with. */
export interface LeaseSettings {
  ttlMs: number;
  holder: string;
}

/** The lease settings of an agent, checked. */
export function leaseSettingsOf(options: AgentLeaseOptions | undefined): LeaseSettings {
  const ttlMs = options?.ttlMs ?? DEFAULT_LEASE_TTL_MS;
  if (typeof ttlMs !== 'number' || !Number.isFinite(ttlMs) || ttlMs < 100) {
    throw new AgentError({
      code: 'invalid_option',
      message: `lease.ttlMs must be a number of milliseconds, at least 100; got ${String(ttlMs)}.`,
    });
  }
  const holder = options?.holder ?? `${hostname()}:${process.pid}`;
  if (typeof holder !== 'string' || holder === '') {
    throw new AgentError({
      code: 'invalid_option',
      message: 'lease.holder must be a non-empty string.',
    });
  }
  return { ttlMs, holder };
}

/** The keepers whose process may be stopped and continued (SIGCONT): checked first thing on waking. */
const keepers = new Set<RunLeaseKeeper>();
let listening = false;
const onContinued = (): void => {
  for (const keeper of keepers) keeper.check();
};

/**
 * One run's hold on its lease (internal): renews it every third of its time to live on an
 * unref'd timer (it never keeps the process alive), knows by its own monotonic clock until
 * when it surely holds it, and declares it lost — once — when a renewal or a fenced write
 * is refused, or when that time passes without a renewal (the process was paused or
 * starved). A lost lease calls `onLost`, which aborts the run.
 */
export class RunLeaseKeeper {
  readonly journal: RunJournal;
  readonly runId: string;
  readonly #ttlMs: number;
  #lease: RunLease;
  /** `performance.now()` until which the lease is surely ours. */
  #validUntil: number;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #lost: RunLeaseError | undefined;
  #onLost: ((error: RunLeaseError) => void) | undefined;
  #stopped = false;
  /** After a lapse: the journal asked who holds the run now (the error then names it). */
  #confirmed: Promise<void> | undefined;
  /** A renewal on its way: a release waits for it, so it cannot extend a released lease. */
  #renewing: Promise<void> | undefined;

  private constructor(journal: RunJournal, lease: RunLease, ttlMs: number, sentAt: number) {
    this.journal = journal;
    this.runId = lease.runId;
    this.#ttlMs = ttlMs;
    this.#lease = lease;
    this.#validUntil = validUntil(sentAt, ttlMs);
  }

  /**
   * Takes the run's lease; when another holder's is live, waits up to `waitMs` for it to
   * expire or be released (rechecking when it should), then rejects with `run_lease_held`.
   */
  static async acquire(
    journal: RunJournal,
    runId: string,
    settings: LeaseSettings,
    options: { waitMs?: number; signal?: AbortSignal } = {},
  ): Promise<RunLeaseKeeper> {
    const holder = `${settings.holder}:${randomUUID().slice(0, 8)}`;
    const deadline = performance.now() + Math.max(0, options.waitMs ?? 0);
    for (;;) {
      const sentAt = performance.now();
      try {
        const lease = await journal.acquireLease(runId, holder, settings.ttlMs);
        return new RunLeaseKeeper(journal, lease, settings.ttlMs, sentAt);
      } catch (error) {
        const left = deadline - performance.now();
        if (!AgentError.isInstance(error) || error.code !== 'run_lease_held' || left <= 0) {
          throw error;
        }
        if (options.signal?.aborted) throw error;
        const expiresIn = (error as RunLeaseError).expiresInMs ?? 250;
        await pause(Math.min(left, Math.max(10, expiresIn + 5), 1000), options.signal);
      }
    }
  }

  /** The fencing token every write of the run carries. */
  get token(): number {
    return this.#lease.token;
  }

  get lease(): RunLease {
    return this.#lease;
  }

  /** The error the lease was lost with, once lost. */
  get lost(): RunLeaseError | undefined {
    return this.#lost;
  }

  /** Starts renewing; `onLost` hears the loss (once). */
  start(onLost: (error: RunLeaseError) => void): void {
    this.#onLost = onLost;
    if (this.#stopped) return;
    keepers.add(this);
    if (!listening && typeof process?.on === 'function') {
      listening = true;
      try {
        process.on('SIGCONT', onContinued);
      } catch {
        // A platform without SIGCONT: the other checks remain.
      }
    }
    this.#schedule();
    if (this.#lost !== undefined) onLost(this.#lost);
  }

  /**
   * True while the lease is surely this run's; false once it is lost — including now, when
   * its time ran out by this process's clock without a renewal (then it is declared lost).
   * Synchronous: the run asks before it starts a call.
   */
  check(): boolean {
    if (this.#lost !== undefined) return false;
    if (this.#stopped) return true;
    const late = performance.now() - this.#validUntil;
    if (late < 0) return true;
    this.markLost(
      new RunLeaseError({
        code: 'run_lease_lost',
        runId: this.runId,
        message: `This process could not renew its lease on run "${this.runId}" in time (${Math.round(late)} ms late: it was paused, starved or cut off from the journal); another process may own the run now, so this one stopped it.`,
      }),
    );
    this.#confirmed = this.#confirmLapse();
    return false;
  }

  /**
   * The error the lease was lost with, once the journal was asked who holds the run now
   * (after a lapse, the error then names the new holder); `undefined` when not lost.
   */
  async settledLoss(): Promise<RunLeaseError | undefined> {
    await this.#confirmed;
    return this.#lost;
  }

  /** After a lapse: learns who took the run, or — nobody did — ends the lease so a resume can take it at once. */
  async #confirmLapse(): Promise<void> {
    const token = this.#lease.token;
    try {
      const current = await this.journal.getLease(this.runId);
      if (current !== undefined && current.token !== token) {
        this.#lost = leaseLost(this.runId, token, current);
      } else {
        await this.journal.releaseLease(this.runId, token);
      }
    } catch {
      // The journal cannot tell: the lapse stands as the reason.
    }
  }

  /** Declares the lease lost (a refused write, renewal or a lapse); the first error wins. */
  markLost(error: RunLeaseError): void {
    if (this.#lost !== undefined) return;
    this.#lost = error;
    this.#unschedule();
    this.#onLost?.(error);
  }

  /** Stops renewing and ends the lease (when still held), so the next holder need not wait. */
  async release(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#unschedule();
    await this.#renewing;
    if (this.#lost !== undefined) return;
    await this.journal.releaseLease(this.runId, this.#lease.token).catch(() => {});
  }

  #schedule(): void {
    if (this.#stopped || this.#lost !== undefined) return;
    const now = performance.now();
    // Renew at a third of the lease; check at its local end if renewals keep failing.
    const renewIn = this.#ttlMs / 3;
    const delay = Math.max(1, Math.min(renewIn, this.#validUntil - now));
    this.#timer = setTimeout(() => {
      const renewing = this.#renew();
      this.#renewing = renewing;
      void renewing.finally(() => {
        if (this.#renewing === renewing) this.#renewing = undefined;
      });
    }, delay);
    this.#timer.unref?.();
  }

  #unschedule(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    keepers.delete(this);
  }

  async #renew(): Promise<void> {
    this.#timer = undefined;
    if (!this.check() || this.#stopped) return;
    const sentAt = performance.now();
    try {
      const lease = await this.journal.renewLease(this.runId, this.#lease.token, this.#ttlMs);
      if (this.#stopped || this.#lost !== undefined) return;
      this.#lease = lease;
      this.#validUntil = validUntil(sentAt, this.#ttlMs);
    } catch (error) {
      if (RunLeaseError.isLeaseError(error)) {
        this.markLost(error as RunLeaseError);
        return;
      }
      // The journal failed (after its own retries): try again until the lease runs out.
    }
    if (this.check()) this.#schedule();
  }
}

/** The local end of a lease asked for at `sentAt`: a tenth early (at most a second), against clock drift. */
function validUntil(sentAt: number, ttlMs: number): number {
  return sentAt + ttlMs - Math.min(1000, ttlMs / 10);
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
