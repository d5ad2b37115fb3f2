import * as crypto from 'node:crypto';
import { blake3 } from '@noble/hashes/blake3.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { canonicalize } from './canonical-json';

/** The hash algorithms of a semantic hash, named by their prefix: `sha256:` or `b3:` (BLAKE3). */
export type HashAlgorithm = 'sha256' | 'b3';

/** The algorithms {@link semanticHash} knows. */
export const HASH_ALGORITHMS: readonly HashAlgorithm[] = ['sha256', 'b3'];

const encoder = new TextEncoder();

// `crypto.hash` (Node 20.12+) hashes a string in one call, without a Hash object.
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string })
  .hash;

/**
 * Hashes text that is already in canonical form: `sha256:<hex>` or `b3:<hex>`.
 *
 * @example
 * ```ts source="./hashing.examples.ts#hashCanonical"
 * hashCanonical('{"a":1}', 'b3'); // 'b3:…'
 * ```
 *
 * @internal
 */
export function hashCanonical(canonical: string, algorithm: HashAlgorithm = 'sha256'): string {
  if (algorithm === 'b3') return `b3:${bytesToHex(blake3(encoder.encode(canonical)))}`;
  return `sha256:${oneShot ? oneShot('sha256', canonical, 'hex') : crypto.createHash('sha256').update(canonical, 'utf8').digest('hex')}`;
}

/**
 * The semantic hash of a payload: its MPL canonical form ({@link canonicalize}), hashed.
 * Two payloads that differ only in key order, `null` members, number spelling or
 * surrounding white space hash the same. SHA-256 by default, as the MPL tutorial shows;
 * `b3` for BLAKE3, as the reference proxy writes.
 *
 * @example
 * ```ts source="./hashing.examples.ts#semanticHash"
 * semanticHash({ b: 2, a: 1 }) === semanticHash({ a: 1, b: 2 }); // true
 * semanticHash({ a: 1 }, { algorithm: 'b3' }); // 'b3:…'
 * ```
 */
export function semanticHash(value: unknown, options?: { algorithm?: HashAlgorithm }): string {
  // One pass writes the canonical text (no intermediate copy of the value); one update hashes it.
  return hashCanonical(canonicalize(value), options?.algorithm === 'b3' ? 'b3' : 'sha256');
}

/** The algorithm a hash names by its prefix, or `undefined` for an unknown prefix. */
export function hashAlgorithmOf(hash: string): HashAlgorithm | undefined {
  if (hash.startsWith('sha256:')) return 'sha256';
  if (hash.startsWith('b3:')) return 'b3';
  return undefined;
}

/**
 * True when `hash` is the semantic hash of `value`; the prefix (`sha256:` / `b3:`) picks
 * the algorithm. An unknown prefix, or a value JSON cannot carry, gives `false`.
 *
 * @example
 * ```ts source="./hashing.examples.ts#verifyHash"
 * verifyHash({ a: 1 }, semanticHash({ a: 1 })); // true
 * ```
 */
export function verifyHash(value: unknown, hash: string): boolean {
  const algorithm = hashAlgorithmOf(hash);
  if (algorithm === undefined) return false;
  try {
    return semanticHash(value, { algorithm }) === hash;
  } catch {
    return false;
  }
}
