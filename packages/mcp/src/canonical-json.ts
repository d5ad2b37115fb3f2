import { createHash } from 'node:crypto';

/**
 * JSON with object keys sorted at every depth, so equal values always give equal text
 * (`{"b":1,"a":2}` and `{"a":2,"b":1}` both become `{"a":2,"b":1}`). `undefined` members
 * are dropped, as `JSON.stringify` drops them.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? 'null';
}

/** A short, stable digest of a JSON value: SHA-256 of its canonical JSON, base64url. */
export function jsonDigest(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('base64url');
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    sorted[key] = sortKeys((value as Record<string, unknown>)[key]);
  }
  return sorted;
}
