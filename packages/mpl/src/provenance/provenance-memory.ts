import type { HashAlgorithm } from '../hashing/semantic-hash';
import {
  linkEntry,
  type ProvenanceEntry,
  type ProvenanceEntryInput,
  type ProvenanceStore,
} from './provenance';

const noPlan = '\u0000';

/**
 * A {@link ProvenanceStore} in memory: for tests, tools and single-process agents. Appends
 * are synchronous inside, so each plan's chain is linked in call order.
 *
 * @example
 * ```ts source="./provenance.examples.ts#InMemoryProvenanceStore"
 * const store = new InMemoryProvenanceStore();
 * await store.append({
 *   plan_id: 'p1',
 *   stype: 'org.agent.TaskPlan.v1',
 *   sem_hash: semanticHash(payload),
 *   payload,
 *   qom_profile: 'qom-basic',
 *   qom_passed: true,
 * });
 * ```
 */
export class InMemoryProvenanceStore implements ProvenanceStore {
  readonly #chains = new Map<string, ProvenanceEntry[]>();
  readonly #invocations = new Map<string, string>();
  readonly #algorithm: HashAlgorithm;

  constructor(options: { algorithm?: HashAlgorithm } = {}) {
    this.#algorithm = options.algorithm ?? 'sha256';
  }

  async append(record: ProvenanceEntryInput): Promise<ProvenanceEntry> {
    const planId =
      record.plan_id !== undefined
        ? record.plan_id
        : record.invocation_id
          ? (this.#invocations.get(record.invocation_id) ?? null)
          : null;
    const key = planId ?? noPlan;
    const chain = this.#chains.get(key) ?? [];
    const linked =
      record.plan_id === planId
        ? (record as ProvenanceEntryInput & { plan_id: string | null })
        : { ...record, plan_id: planId };
    const entry = linkEntry(chain.at(-1), linked, this.#algorithm);
    chain.push(entry);
    this.#chains.set(key, chain);
    if (planId !== null && record.invocation_id && !this.#invocations.has(record.invocation_id))
      this.#invocations.set(record.invocation_id, planId);
    return { ...entry };
  }

  async chain(
    planId: string | null,
    options: { payloads?: boolean } = {},
  ): Promise<ProvenanceEntry[]> {
    const chain = this.#chains.get(planId ?? noPlan) ?? [];
    return chain.map((entry) => {
      if (options.payloads) return { ...entry };
      const { payload: _payload, ...rest } = entry;
      return rest;
    });
  }

  async planIds(): Promise<string[]> {
    return [...this.#chains.keys()].filter((key) => key !== noPlan).sort();
  }

  /** Nothing to release: the chains live in memory. */
  async close(): Promise<void> {}
}
