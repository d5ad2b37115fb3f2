import { NotFoundError, type ProvenanceEntry } from '@mtpx/mpl';

/** What reading a proxy's data folder gave: the chain, or why there is none. */
export type FolderChain =
  | { ok: true; entries: ProvenanceEntry[] }
  | { ok: false; status: number; code: string; message: string };

/**
 * A plan's chain read from an MPL proxy's data folder, for when no proxy is running:
 * through the read-only reader `@mtpx/mpl-proxy/reader` exports, so the entries are the
 * proxy's own (every field, `validated` included) and verify here as they do there.
 */
export async function readFolderChain(dataDir: string, planId: string): Promise<FolderChain> {
  // Loaded on first use: the Inspector starts without SQLite when no folder is read.
  const { openProvenanceReader } = await import('@mtpx/mpl-proxy/reader');
  let reader: ReturnType<typeof openProvenanceReader>;
  try {
    reader = openProvenanceReader(dataDir);
  } catch (error) {
    if (!NotFoundError.isInstance(error)) throw error;
    return { ok: false, status: 404, code: 'provenance_not_found', message: error.message };
  }
  try {
    const entries = await reader.chain(planId, { payloads: true });
    if (entries.length === 0)
      return {
        ok: false,
        status: 404,
        code: 'plan_not_found',
        message: `No provenance is recorded for plan ${planId}.`,
      };
    return { ok: true, entries };
  } finally {
    await reader.close();
  }
}
