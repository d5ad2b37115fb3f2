import {
  acquiredLease,
  leaseView,
  releasedLease,
  renewedLease,
  type StoredLease,
} from './lease-rules';
import {
  checkJournalVersion,
  type JournaledCall,
  type JournaledRun,
  type RunJournal,
  replacesJournaledResult,
} from './run-journal';
import { checkLeaseToken, type JournalWriteOptions, type RunLease } from './run-lease';

/** Options of {@link InMemoryRunJournal}. */
export interface InMemoryRunJournalOptions {
  /** The clock leases expire by, in milliseconds (default `Date.now`); tests pass their own. */
  now?: () => number;
}

/**
 * A {@link RunJournal} in memory: runs and finished calls survive a failed run, not the
 * process. For tests, and to resume a run in the same process; use a durable journal
 * (`PostgresRunJournal` from `@mtpx/postgres`) to survive a crash. Leases work as in
 * every journal (one owner per run within the process).
 *
 * @example
 * ```ts source="./in-memory-run-journal.examples.ts#InMemoryRunJournal"
 * const journal = new InMemoryRunJournal();
 * const agent = createAgent({ provider, tools, journal });
 * await agent.resume('run_1');
 * ```
 */
export class InMemoryRunJournal implements RunJournal {
  readonly #runs = new Map<string, JournaledRun>();
  readonly #calls = new Map<string, Map<string, JournaledCall>>();
  readonly #leases = new Map<string, StoredLease>();
  readonly #now: () => number;

  constructor(options: InMemoryRunJournalOptions = {}) {
    this.#now = options.now ?? Date.now;
  }

  async get(runId: string): Promise<JournaledRun | undefined> {
    const run = this.#runs.get(runId);
    return run === undefined ? undefined : structuredClone(run);
  }

  async save(run: JournaledRun, options?: JournalWriteOptions): Promise<void> {
    checkLeaseToken(run.run_id, this.#leaseOf(run.run_id), options);
    checkJournalVersion(this.#runs.get(run.run_id), run);
    this.#runs.set(run.run_id, structuredClone({ ...run, version: (run.version ?? 0) + 1 }));
  }

  async recordCall(
    runId: string,
    call: JournaledCall,
    options?: JournalWriteOptions,
  ): Promise<void> {
    checkLeaseToken(runId, this.#leaseOf(runId), options);
    let calls = this.#calls.get(runId);
    if (calls === undefined) {
      calls = new Map();
      this.#calls.set(runId, calls);
    }
    const key = `${call.call_id}\u0000${call.arguments_hash}`;
    const stored = calls.get(key);
    if (stored === undefined || replacesJournaledResult(stored.result))
      calls.set(key, structuredClone(call));
  }

  async calls(runId: string): Promise<JournaledCall[]> {
    return [...(this.#calls.get(runId)?.values() ?? [])].map((call) => structuredClone(call));
  }

  async delete(runId: string): Promise<boolean> {
    this.#calls.delete(runId);
    this.#leases.delete(runId);
    return this.#runs.delete(runId);
  }

  async acquireLease(runId: string, holder: string, ttlMs: number): Promise<RunLease> {
    const now = this.#now();
    const lease = acquiredLease(runId, this.#leases.get(runId), holder, ttlMs, now);
    this.#leases.set(runId, lease);
    return leaseView(runId, lease, now);
  }

  async renewLease(runId: string, token: number, ttlMs: number): Promise<RunLease> {
    const now = this.#now();
    const lease = renewedLease(runId, this.#leases.get(runId), token, ttlMs, now);
    this.#leases.set(runId, lease);
    return leaseView(runId, lease, now);
  }

  async releaseLease(runId: string, token: number): Promise<void> {
    const lease = releasedLease(this.#leases.get(runId), token, this.#now());
    if (lease !== undefined) this.#leases.set(runId, lease);
  }

  async getLease(runId: string): Promise<RunLease | undefined> {
    return this.#leaseOf(runId);
  }

  #leaseOf(runId: string): RunLease | undefined {
    const stored = this.#leases.get(runId);
    return stored && leaseView(runId, stored, this.#now());
  }
}
