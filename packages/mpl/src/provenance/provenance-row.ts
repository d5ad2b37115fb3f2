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
export type ProvenanceRow = Omit<ProvenanceEntry, 'qom_passed' | 'validated' | 'payload'> & {
  /** `plan_id ?? ''`: the key a plan's chain is stored and read under. */
  plan_key: string;
  qom_passed: boolean | number;
  /** `false` (`0`) for an entry recorded without validation (transparent mode); else `null`. */
  validated: boolean | number | null;
  /** The payload's JSON text. Rows read without payloads leave it out. */
  payload?: string;
};

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

/** How {@link provenanceRowValues} writes a row: the payload to store, and the flags' type. */
export interface ProvenanceRowOptions {
  /** The message the entry records (default: `entry.payload`). */
  payload?: JsonValue;
  /** `integer` writes `qom_passed` and `validated` as `1`/`0`, for databases without booleans (SQLite). */
  flags?: 'boolean' | 'integer';
}

/**
 * The values of the row that stores `entry`, in {@link provenanceRowColumns} order: what a
 * store binds to its `INSERT` (positional parameters, no object per row). Each column is
 * written by name here, so the order cannot drift from the column list (a test checks it).
 *
 * @internal
 */
export function provenanceRowValues(
  entry: ProvenanceEntry,
  options: ProvenanceRowOptions = {},
): unknown[] {
  const integer = options.flags === 'integer';
  const payload = options.payload !== undefined ? options.payload : entry.payload;
  return [
    provenancePlanKey(entry.plan_id), // plan_key
    entry.plan_id,
    entry.seq,
    entry.stype,
    entry.method,
    entry.invocation_id,
    entry.sem_hash,
    entry.parent_hash,
    entry.entry_hash,
    entry.timestamp,
    entry.qom_profile,
    integer ? (entry.qom_passed ? 1 : 0) : entry.qom_passed, // qom_passed
    entry.validated === false ? (integer ? 0 : false) : null, // validated
    JSON.stringify(payload ?? null), // payload
  ];
}

/**
 * The row that stores `entry` (with `payload`, the message it records), as an object keyed
 * by column: {@link provenanceRowValues} under {@link provenanceRowColumns}.
 *
 * @internal
 */
export function provenanceRowOf(
  entry: ProvenanceEntry,
  options: ProvenanceRowOptions = {},
): ProvenanceRow & { payload: string } {
  const values = provenanceRowValues(entry, options);
  const row: Record<string, unknown> = {};
  provenanceRowColumns.forEach((column, index) => {
    row[column] = values[index];
  });
  return row as ProvenanceRow & { payload: string };
}

/**
 * The entry a stored row holds (`plan_key` is not part of it). The payload is parsed when
 * the row has one; a payload edited into invalid JSON stays text, so `verifyChain` reports
 * it instead of the read failing.
 *
 * @internal
 */
export function provenanceEntryOf(row: Omit<ProvenanceRow, 'plan_key'>): ProvenanceEntry {
  const { qom_passed, validated, payload, ...fields } = row as ProvenanceRow;
  const { plan_key: _key, ...entryFields } = fields;
  const entry: ProvenanceEntry = {
    ...entryFields,
    qom_passed: qom_passed === true || qom_passed === 1,
  };
  if (validated === false || validated === 0) entry.validated = false;
  if (payload !== undefined && payload !== null) {
    const parsed = safeParseJson(payload);
    entry.payload = parsed.ok ? parsed.value : (payload as JsonValue);
  }
  return entry;
}

/**
 * The provenance row in one place, for every store and reader: the columns, the key of a
 * plan's chain, and the mapping both ways (`valuesOf` and `rowOf`, `entryOf`).
 *
 * @internal
 */
export const provenanceRows = {
  /** The entry's columns, comma-separated: what a store selects to rebuild entries. */
  entryColumnList: provenanceEntryColumns.join(', '),
  /** Every column a store inserts, in order. */
  columns: provenanceRowColumns,
  planKey: provenancePlanKey,
  rowOf: provenanceRowOf,
  valuesOf: provenanceRowValues,
  entryOf: provenanceEntryOf,
} as const;
