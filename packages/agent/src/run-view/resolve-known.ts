import { type JsonValue, resolveReferences } from '@mtpx/protocol';
import { isReference } from '@mtpx/protocol/internal';

/**
 * `value` with each reference whose output `lookup` knows replaced by it (narrowed by its
 * `$path`), the others left as written: what a view shows of a call's inputs while some
 * are still unknown. Each reference is resolved by protocol's own `resolveReferences`.
 */
export function resolveKnownReferences(
  value: JsonValue,
  lookup: (callId: string) => JsonValue | undefined,
): JsonValue {
  if (isReference(value)) {
    const resolved = resolveReferences(value, lookup);
    return resolved.ok ? resolved.value : value;
  }
  if (Array.isArray(value)) return value.map((item) => resolveKnownReferences(item, lookup));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, resolveKnownReferences(item, lookup)]),
  );
}
