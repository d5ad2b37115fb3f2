import { createHash } from 'node:crypto';
import { canonicalJson } from '@mtpx/protocol';

/**
 * A short, stable digest of a JSON value: SHA-256 of its canonical JSON (keys sorted at
 * every depth), base64url — equal values written in another key order digest alike.
 */
export function jsonDigest(value: unknown): string {
  const text = canonicalJson(value) ?? JSON.stringify(value) ?? 'null';
  return createHash('sha256').update(text).digest('base64url');
}
