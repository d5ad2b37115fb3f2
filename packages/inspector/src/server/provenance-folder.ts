import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ProvenanceEntry } from '@mtpx/mpl';
import { type JsonValue, safeParseJson } from '@mtpx/protocol';

interface Row {
  plan_id: string | null;
  seq: number;
  stype: string;
  method: string | null;
  invocation_id: string | null;
  sem_hash: string;
  parent_hash: string | null;
  entry_hash: string;
  timestamp: string;
  qom_profile: string;
  qom_passed: number;
  payload: string;
}

interface SqliteDatabase {
  prepare(sql: string): { all(...parameters: unknown[]): unknown[] };
  close(): void;
}

/** What reading a proxy's data folder gave: the chain, or why there is none. */
export type FolderChain =
  | { ok: true; entries: ProvenanceEntry[] }
  | { ok: false; status: number; code: string; message: string };

/**
 * A plan's chain read straight from an MPL proxy's data folder (`provenance.db`, opened
 * read-only), for when no proxy is running. Needs the optional peer `better-sqlite3`.
 */
export async function readFolderChain(dataDir: string, planId: string): Promise<FolderChain> {
  const path = join(dataDir, 'provenance.db');
  if (!existsSync(path))
    return {
      ok: false,
      status: 404,
      code: 'provenance_not_found',
      message: `No provenance.db in ${dataDir}.`,
    };
  let open: new (
    file: string,
    options: { readonly: boolean; fileMustExist: boolean },
  ) => SqliteDatabase;
  try {
    const module = (await import('better-sqlite3')) as unknown as { default: typeof open };
    open = module.default;
  } catch {
    return {
      ok: false,
      status: 501,
      code: 'sqlite_unavailable',
      message:
        'Reading a proxy data folder needs the optional package better-sqlite3: npm install better-sqlite3 (or use --mpl-proxy URL).',
    };
  }
  const database = new open(path, { readonly: true, fileMustExist: true });
  try {
    const rows = database
      .prepare(
        'SELECT plan_id, seq, stype, method, invocation_id, sem_hash, parent_hash, entry_hash, timestamp, qom_profile, qom_passed, payload FROM provenance_entries WHERE plan_key = ? ORDER BY seq',
      )
      .all(planId) as Row[];
    if (rows.length === 0)
      return {
        ok: false,
        status: 404,
        code: 'plan_not_found',
        message: `No provenance is recorded for plan ${planId}.`,
      };
    return {
      ok: true,
      entries: rows.map((row) => {
        const parsed = safeParseJson(row.payload);
        return {
          plan_id: row.plan_id,
          seq: row.seq,
          stype: row.stype,
          method: row.method,
          invocation_id: row.invocation_id,
          sem_hash: row.sem_hash,
          parent_hash: row.parent_hash,
          entry_hash: row.entry_hash,
          timestamp: row.timestamp,
          qom_profile: row.qom_profile,
          qom_passed: row.qom_passed === 1,
          // A payload edited into invalid JSON stays text, so verification reports it.
          payload: parsed.ok ? parsed.value : (row.payload as JsonValue),
        };
      }),
    };
  } finally {
    database.close();
  }
}
