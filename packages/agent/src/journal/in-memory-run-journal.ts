import {
  checkJournalVersion,
  type JournaledCall,
  type JournaledRun,
  type RunJournal,
} from './run-journal';

/**
 * A {@link RunJournal} in memory: runs and finished calls survive a failed run, not the
 * process. For tests, and to resume a run in the same process; use a durable journal
 * (`PostgresRunJournal` from `@mtpx/postgres`) to survive a crash.
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

  async get(runId: string): Promise<JournaledRun | undefined> {
    const run = this.#runs.get(runId);
    return run === undefined ? undefined : structuredClone(run);
  }

  async save(run: JournaledRun): Promise<void> {
    checkJournalVersion(this.#runs.get(run.run_id), run);
    this.#runs.set(run.run_id, structuredClone({ ...run, version: (run.version ?? 0) + 1 }));
  }

  async recordCall(runId: string, call: JournaledCall): Promise<void> {
    let calls = this.#calls.get(runId);
    if (calls === undefined) {
      calls = new Map();
      this.#calls.set(runId, calls);
    }
    const key = `${call.call_id}\u0000${call.arguments_hash}`;
    if (!calls.has(key)) calls.set(key, structuredClone(call));
  }

  async calls(runId: string): Promise<JournaledCall[]> {
    return [...(this.#calls.get(runId)?.values() ?? [])].map((call) => structuredClone(call));
  }

  async delete(runId: string): Promise<boolean> {
    this.#calls.delete(runId);
    return this.#runs.delete(runId);
  }
}
