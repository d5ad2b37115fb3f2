import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { NotFoundError, type ProvenanceEntry } from '@mtpx/mpl';
import { SqliteProvenanceStore } from './sqlite-provenance-store';

/**
 * Read-only access to the provenance chains an MPL proxy recorded in its data folder. The
 * entries come back exactly as the proxy's own store returns them (through the row mapping
 * `@mtpx/mpl` owns, `validated` included), so `verifyChain` gives the proxy's verdict.
 */
export interface ProvenanceReader {
  /** The database file read (`<dataDir>/provenance.db`). */
  readonly path: string;
  /** A plan's chain in order (`null`: messages without a plan); `[]` when unknown. */
  chain(planId: string | null, options?: { payloads?: boolean }): Promise<ProvenanceEntry[]>;
  /** Every plan id with at least one entry. */
  planIds(): Promise<string[]>;
  /** Closes the database. */
  close(): Promise<void>;
}

/**
 * Opens the provenance a proxy recorded in `dataDir` for reading only: nothing is created
 * or written, and a running proxy may keep appending meanwhile. Throws `NotFoundError`
 * (`E-NOT-FOUND`) when the folder holds no `provenance.db`.
 *
 * @example
 * ```ts source="./provenance-reader.examples.ts#open-provenance-reader"
 * const reader = openProvenanceReader('/var/lib/mpl');
 * try {
 *   const chain = await reader.chain('plan_1', { payloads: true });
 *   console.log(verifyChain(chain).valid);
 * } finally {
 *   await reader.close();
 * }
 * ```
 */
export function openProvenanceReader(dataDir: string): ProvenanceReader {
  if (!existsSync(join(dataDir, 'provenance.db')))
    throw new NotFoundError({ message: `No provenance.db in ${dataDir}.` });
  const store = SqliteProvenanceStore.open({ dataDir, readOnly: true });
  return {
    path: store.path,
    chain: (planId, options) => store.chain(planId, options),
    planIds: () => store.planIds(),
    close: () => store.close(),
  };
}
