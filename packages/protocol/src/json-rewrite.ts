import type { JsonValue } from './json';
import { setOwnProperty } from './json-bounds';

/** A location in a JSON value (object keys and array indexes from the top) and what to put there. */
export interface JsonReplacement {
  /** The path from the top; empty for the value itself. */
  readonly segments: readonly (string | number)[];
  /** The value to put at that location. */
  readonly value: JsonValue;
}

/**
 * A copy of `value` with each location set to its replacement. Only the containers on the
 * way to a replaced location are copied (shallowly, without recursion), so no depth of
 * value can overflow it, and the rest is shared with `value`; `__proto__` keys stay keys.
 * Locations must not lie inside one another (a `$ref` never nests in a `$ref`).
 *
 * @internal
 */
export function replaceAt(value: JsonValue, replacements: readonly JsonReplacement[]): JsonValue {
  const top = replacements.find((replacement) => replacement.segments.length === 0);
  if (top !== undefined) return top.value;
  type Container = Record<string | number, JsonValue>;
  const copies = new WeakSet<object>();
  const shallowCopy = (container: JsonValue): Container => {
    const copied = (
      Array.isArray(container) ? [...container] : { ...(container as object) }
    ) as Container;
    copies.add(copied);
    return copied;
  };
  const root = shallowCopy(value);
  for (const replacement of replacements) {
    let parent = root;
    const last = replacement.segments.length - 1;
    for (let depth = 0; depth < last; depth++) {
      const key = replacement.segments[depth] as string | number;
      let child = parent[key] as Container;
      if (!copies.has(child)) {
        child = shallowCopy(child);
        setOwnProperty(parent, key, child);
      }
      parent = child;
    }
    setOwnProperty(parent, replacement.segments[last] as string | number, replacement.value);
  }
  return root as JsonValue;
}
