import { type JsonValue, safeParseJson } from '@mtpx/protocol';
import type { ProvenanceEntry } from './provenance';

/**
 * One stored provenance entry, as a database row: the entry's fields under their own names,
 * flags as booleans or as `1`/`0` where the database has no boolean type (SQLite), and the
 * payload as JSON text. Every store (the proxy's SQLite, PostgreSQL) and every reader (the
 * Inspector, through the proxy's reader) maps rows with {@link provenanceRowOf} and
 * {@link provenanceEntryOf}, so no copy of the mapping can drop a field.
 *
 * @internal
 */
export interface ProvenanceRow {
  /** `plan_id ?? ''`: the key a plan's chain is stored and read under. */
  plan_key: string;
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
  qom_passed: boolean | number;
  /** `false` (`0`) for an entry recorded without validation (transparent mode); else `null`. */
  validated: boolean | number | null;
  /** The payload's JSON text. Rows read without payloads leave it out. */
  payload?: string;
}

/**
 * The columns of {@link ProvenanceRow} that hold an entry's fields, in table order (without
 * `plan_key` and `payload`): what a store selects to rebuild entries.
 *
 * @internal
 */
export const provenanceEntryColumns = [
  'plan_id',
  'seq',
  'stype',
  'method',
  'invocation_id',
  'sem_hash',
  'parent_hash',
  'entry_hash',
  'timestamp',
  'qom_profile',
  'qom_passed',
  'validated',
] as const satisfies ReadonlyArray<keyof ProvenanceRow>;

/**
 * Every column a store inserts, in order: `plan_key`, the entry's columns, `payload`.
 *
 * @internal
 */
export const provenanceRowColumns = [
  'plan_key',
  ...provenanceEntryColumns,
  'payload',
] as const satisfies ReadonlyArray<keyof ProvenanceRow>;

/**
 * The key a plan's chain is stored under: its id, or `''` for messages without a plan.
 *
 * @internal
 */
export function provenancePlanKey(planId: string | null): string {
  return planId ?? '';
}

/**
 * The row that stores `entry` (with `payload`, the message it records). `flags: 'integer'`
 * writes `qom_passed` and `validated` as `1`/`0`, for databases without booleans (SQLite).
 *
 * @internal
 */
export function provenanceRowOf(
  entry: ProvenanceEntry,
  options: { payload?: JsonValue; flags?: 'boolean' | 'integer' } = {},
): ProvenanceRow & { payload: string } {
  const integer = options.flags === 'integer';
  const payload = options.payload !== undefined ? options.payload : entry.payload;
  return {
    plan_key: provenancePlanKey(entry.plan_id),
    plan_id: entry.plan_id,
    seq: entry.seq,
    stype: entry.stype,
    method: entry.method,
    invocation_id: entry.invocation_id,
    sem_hash: entry.sem_hash,
    parent_hash: entry.parent_hash,
    entry_hash: entry.entry_hash,
    timestamp: entry.timestamp,
    qom_profile: entry.qom_profile,
    qom_passed: integer ? (entry.qom_passed ? 1 : 0) : entry.qom_passed,
    validated: entry.validated === false ? (integer ? 0 : false) : null,
    payload: JSON.stringify(payload ?? null),
  };
}

/**
 * The entry a stored row holds (`plan_key` is not part of it). The payload is parsed when
 * the row has one; a payload edited into invalid JSON stays text, so `verifyChain` reports
 * it instead of the read failing.
 *
 * @internal
 */
export function provenanceEntryOf(row: Omit<ProvenanceRow, 'plan_key'>): ProvenanceEntry {
  const entry: ProvenanceEntry = {
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
    qom_passed: row.qom_passed === true || row.qom_passed === 1,
  };
  if (row.validated === false || row.validated === 0) entry.validated = false;
  if (row.payload !== undefined && row.payload !== null) {
    const parsed = safeParseJson(row.payload);
    entry.payload = parsed.ok ? parsed.value : (row.payload as JsonValue);
  }
  return entry;
}
