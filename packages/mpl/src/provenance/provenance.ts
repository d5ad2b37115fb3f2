import type { JsonValue } from '@mtpx/protocol';
import { canonicalize, canonicalString } from '../hashing/canonical-json';
import {
  type HashAlgorithm,
  hashAlgorithmOf,
  hashCanonical,
  semanticHash,
} from '../hashing/semantic-hash';

/**
 * What a caller hands a {@link ProvenanceStore} to append one accepted message as an entry
 * of its plan's chain (was `ProvenanceRecord`: a "record" is a recorded run, in the Inspector).
 */
export interface ProvenanceEntryInput {
  /**
   * The plan the message belongs to. Leave it `undefined` to let the store find it from
   * `invocation_id` (a ToolResult joins the plan of the ToolInvocation it answers); `null`
   * puts the message in the chain of messages without a plan.
   */
  plan_id?: string | null;
  /** The `invocationId` the payload carries, if any. */
  invocation_id?: string | null;
  stype: string;
  /** The method it was sent with (`agent.plan`). */
  method?: string | null;
  sem_hash: string;
  payload: JsonValue;
  qom_profile: string;
  qom_passed: boolean;
  /**
   * `false` when the proxy could not check the message (transparent mode, an SType not in
   * its registry). Absent means validated; stores keep `false` and return it on the entry.
   */
  validated?: boolean;
  /** ISO 8601; the store's clock when absent. */
  timestamp?: string;
}

/** @deprecated Use {@link ProvenanceEntryInput}; removed in the next minor. */
export type ProvenanceRecord = ProvenanceEntryInput;

/** One entry of a plan's provenance chain, in wire form. */
export interface ProvenanceEntry {
  plan_id: string | null;
  /** 1-based position in the plan's chain. */
  seq: number;
  stype: string;
  method: string | null;
  invocation_id: string | null;
  sem_hash: string;
  /** The previous entry's `sem_hash` (`null` for the first), as the tutorial shows it. */
  parent_hash: string | null;
  /** Hash of this entry's fields together with the previous entry's `entry_hash`. */
  entry_hash: string;
  timestamp: string;
  qom_profile: string;
  qom_passed: boolean;
  /**
   * Present (and `false`) only on entries of messages nothing could be checked against
   * (an unknown SType let through in transparent mode). It is covered by `entry_hash`.
   */
  validated?: false;
  /** The message itself; stores return it when asked (`{ payloads: true }`). */
  payload?: JsonValue;
}

/**
 * Where provenance lives. Implementations must append atomically per plan (each entry
 * linked to the one before it) and resolve only once the entry is durable.
 * {@link InMemoryProvenanceStore} is the in-memory one; `@mtpx/mpl-proxy` has SQLite.
 */
export interface ProvenanceStore {
  /** Links and records one message; resolves with its entry once it is stored. */
  append(record: ProvenanceEntryInput): Promise<ProvenanceEntry>;
  /** A plan's chain in order (`null`: messages without a plan); `[]` when unknown. */
  chain(planId: string | null, options?: { payloads?: boolean }): Promise<ProvenanceEntry[]>;
  /** Every plan id with at least one entry. */
  planIds(): Promise<string[]>;
  /** Releases what the store holds open (a database); it is not used afterwards. */
  close(): Promise<void>;
}

/**
 * Where a payload says it belongs: its top-level `planId` and `invocationId`, when strings.
 *
 * @internal
 */
export function planReferenceOf(payload: unknown): { planId?: string; invocationId?: string } {
  return addPlanReference({}, payload);
}

/** Sets `planId` and `invocationId` of `target` from the payload's own (when strings). */
export function addPlanReference<Target extends { planId?: string; invocationId?: string }>(
  target: Target,
  payload: unknown,
): Target {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return target;
  const record = payload as Record<string, unknown>;
  if (typeof record.planId === 'string') target.planId = record.planId;
  if (typeof record.invocationId === 'string') target.invocationId = record.invocationId;
  return target;
}

/** The fields an entry hash covers, in one canonical object. */
function entryHashInput(
  entry: Omit<ProvenanceEntry, 'entry_hash' | 'payload'>,
  previous: string | null,
) {
  const fast = canonicalEntry(entry, previous);
  if (fast !== undefined) return fast;
  // `validated` joins the hashed fields only when false, so earlier chains keep their hashes.
  return canonicalize({
    ...(entry.validated === false ? { validated: false } : {}),
    plan_id: entry.plan_id,
    seq: entry.seq,
    stype: entry.stype,
    method: entry.method,
    invocation_id: entry.invocation_id,
    sem_hash: entry.sem_hash,
    parent_hash: entry.parent_hash,
    timestamp: entry.timestamp,
    qom_profile: entry.qom_profile,
    qom_passed: entry.qom_passed,
    previous_entry_hash: previous,
  });
}

const isText = (value: unknown): value is string => typeof value === 'string';
const isTextOrNull = (value: unknown): value is string | null =>
  value === null || typeof value === 'string';

/**
 * The canonical text `canonicalize` writes for an entry of the usual types, written
 * directly: members in code-point order, `null`s left out. `undefined` when a field has
 * another type (an entry read back from an edited store), for the general path.
 */
function canonicalEntry(
  entry: Omit<ProvenanceEntry, 'entry_hash' | 'payload'>,
  previous: string | null,
): string | undefined {
  const { invocation_id, method, parent_hash, plan_id, seq, stype, timestamp, qom_profile } = entry;
  if (
    !isTextOrNull(invocation_id) ||
    !isTextOrNull(method) ||
    !isTextOrNull(parent_hash) ||
    !isTextOrNull(plan_id) ||
    !isTextOrNull(previous) ||
    typeof entry.qom_passed !== 'boolean' ||
    !isText(qom_profile) ||
    !isText(entry.sem_hash) ||
    !Number.isSafeInteger(seq) ||
    !isText(stype) ||
    !isText(timestamp) ||
    (entry.validated !== undefined && entry.validated !== false)
  )
    return undefined;
  let out = '{';
  if (invocation_id !== null) out += `"invocation_id":${canonicalString(invocation_id)},`;
  if (method !== null) out += `"method":${canonicalString(method)},`;
  if (parent_hash !== null) out += `"parent_hash":${canonicalString(parent_hash)},`;
  if (plan_id !== null) out += `"plan_id":${canonicalString(plan_id)},`;
  if (previous !== null) out += `"previous_entry_hash":${canonicalString(previous)},`;
  out += `"qom_passed":${entry.qom_passed},"qom_profile":${canonicalString(qom_profile)},`;
  out += `"sem_hash":${canonicalString(entry.sem_hash)},"seq":${seq === 0 ? '0' : seq},`;
  out += `"stype":${canonicalString(stype)},"timestamp":${canonicalString(timestamp)}`;
  if (entry.validated === false) out += ',"validated":false';
  return `${out}}`;
}

/**
 * The `entry_hash` of an entry: its fields and the previous entry's `entry_hash`, in
 * canonical form, hashed. Changing, removing, inserting or reordering any entry changes
 * every hash after it.
 */
export function computeEntryHash(
  entry: Omit<ProvenanceEntry, 'entry_hash' | 'payload'>,
  previousEntryHash: string | null,
  algorithm: HashAlgorithm = 'sha256',
): string {
  return hashCanonical(entryHashInput(entry, previousEntryHash), algorithm);
}

/**
 * The entry that records `record` after `previous` (the last entry of the same chain,
 * or `undefined` for the first). Stores call this inside their atomic append.
 */
export function linkEntry(
  previous: Pick<ProvenanceEntry, 'seq' | 'sem_hash' | 'entry_hash'> | undefined,
  record: ProvenanceEntryInput & { plan_id: string | null },
  algorithm: HashAlgorithm = 'sha256',
): ProvenanceEntry {
  const entry: ProvenanceEntry = {
    plan_id: record.plan_id,
    seq: previous ? previous.seq + 1 : 1,
    stype: record.stype,
    method: record.method ?? null,
    invocation_id: record.invocation_id ?? null,
    sem_hash: record.sem_hash,
    parent_hash: previous ? previous.sem_hash : null,
    timestamp: record.timestamp ?? isoNow(),
    qom_profile: record.qom_profile,
    qom_passed: record.qom_passed,
    entry_hash: '',
  };
  if (record.validated === false) entry.validated = false;
  entry.entry_hash = computeEntryHash(entry, previous ? previous.entry_hash : null, algorithm);
  entry.payload = record.payload;
  return entry;
}

let lastSecond = Number.NaN;
let secondPrefix = '';
let lastMillis = Number.NaN;
let lastIso = '';
const millisText = Array.from({ length: 1000 }, (_, millis) => `${millis}`.padStart(3, '0'));

/**
 * `new Date().toISOString()`: the date and time up to the second written once per second,
 * the milliseconds from a table (no `Date` per call).
 */
function isoNow(): string {
  const millis = Date.now();
  if (millis === lastMillis) return lastIso;
  const fraction = millis % 1000;
  const second = millis - fraction;
  if (second !== lastSecond || fraction < 0) {
    const iso = new Date(millis).toISOString();
    if (fraction < 0) return iso;
    lastSecond = second;
    secondPrefix = iso.slice(0, -4);
  }
  lastMillis = millis;
  lastIso = `${secondPrefix}${millisText[fraction]}Z`;
  return lastIso;
}

/** What is wrong with one entry of a chain. */
export interface ChainProblem {
  /** Index in the list given to {@link verifyChain}. */
  index: number;
  code:
    | 'sequence_mismatch'
    | 'plan_mismatch'
    | 'parent_mismatch'
    | 'sem_hash_mismatch'
    | 'payload_missing'
    | 'entry_hash_mismatch'
    | 'head_mismatch';
  message: string;
}

/** The verdict on a chain. */
export interface ChainVerification {
  valid: boolean;
  length: number;
  /** The last entry's `entry_hash`: keep it elsewhere to detect a truncated tail later. */
  head: string | null;
  problems: ChainProblem[];
}

/**
 * Checks a plan's chain end to end: positions run 1, 2, 3…; each `parent_hash` is the
 * previous `sem_hash`; each `sem_hash` is recomputed from the stored payload; each
 * `entry_hash` is recomputed over the entry and the previous `entry_hash`. Any edited,
 * removed, inserted or reordered entry is reported. Removing entries from the END leaves
 * a shorter valid chain: pass a head kept elsewhere as `expectedHead` to catch that too.
 *
 * @example
 * ```ts source="./provenance.examples.ts#verifyChain"
 * const chain = await store.chain(planId, { payloads: true });
 * const verdict = verifyChain(chain);
 * if (!verdict.valid) console.log(verdict.problems);
 * ```
 */
export function verifyChain(
  entries: readonly ProvenanceEntry[],
  options: { expectedHead?: string; requirePayloads?: boolean } = {},
): ChainVerification {
  const problems: ChainProblem[] = [];
  const requirePayloads = options.requirePayloads ?? true;
  let previous: ProvenanceEntry | undefined;
  entries.forEach((entry, index) => {
    const problem = (code: ChainProblem['code'], message: string) =>
      problems.push({ index, code, message: `entry ${index + 1} (seq ${entry.seq}): ${message}` });
    if (entry.seq !== index + 1) problem('sequence_mismatch', `expected seq ${index + 1}`);
    if (previous && entry.plan_id !== previous.plan_id)
      problem('plan_mismatch', `belongs to plan ${entry.plan_id}, not ${previous.plan_id}`);
    const expectedParent = previous ? previous.sem_hash : null;
    if (entry.parent_hash !== expectedParent)
      problem('parent_mismatch', `parent_hash is ${entry.parent_hash}, expected ${expectedParent}`);
    if (entry.payload === undefined) {
      if (requirePayloads)
        problem('payload_missing', 'no stored payload to recompute sem_hash from');
    } else {
      const algorithm = hashAlgorithmOf(entry.sem_hash);
      let recomputed: string | undefined;
      try {
        recomputed = algorithm ? semanticHash(entry.payload, { algorithm }) : undefined;
      } catch {
        recomputed = undefined;
      }
      if (recomputed !== entry.sem_hash)
        problem('sem_hash_mismatch', 'the stored payload does not hash to its sem_hash');
    }
    const entryAlgorithm = hashAlgorithmOf(entry.entry_hash) ?? 'sha256';
    const { entry_hash: _entryHash, payload: _payload, ...fields } = entry;
    if (
      computeEntryHash(fields, previous ? previous.entry_hash : null, entryAlgorithm) !==
      entry.entry_hash
    )
      problem('entry_hash_mismatch', 'entry_hash does not match the entry and its predecessor');
    previous = entry;
  });
  const head = previous ? previous.entry_hash : null;
  if (options.expectedHead !== undefined && head !== options.expectedHead)
    problems.push({
      index: entries.length - 1,
      code: 'head_mismatch',
      message: `the chain ends at ${head}, expected ${options.expectedHead}: entries were removed or added at the end`,
    });
  return { valid: problems.length === 0, length: entries.length, head, problems };
}
