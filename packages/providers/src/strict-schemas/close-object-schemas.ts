import type { JsonSchemaObject } from '@mtpx/protocol';
import { isSchemaObject, type Schema } from './schema-walk';

/**
 * A tool schema prepared for a strict tool: every object schema that declares
 * `properties` and leaves `additionalProperties` unset gets `false` (both APIs require
 * it; the model then writes only declared properties), and `$schema` is dropped.
 * Everything else is kept.
 *
 * @internal
 */
export function closeObjectSchemas(schema: JsonSchemaObject): JsonSchemaObject {
  const close = (node: unknown, seen: Set<object>): unknown => {
    if (Array.isArray(node)) return node.map((each) => close(each, seen));
    if (!isSchemaObject(node) || seen.has(node)) return node;
    seen.add(node);
    const out: Schema = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === '$schema') continue;
      out[key] =
        key === 'enum' || key === 'const' || key === 'default'
          ? value
          : key === 'properties' || key === '$defs' || key === 'definitions'
            ? isSchemaObject(value)
              ? Object.fromEntries(
                  Object.entries(value).map(([name, each]) => [name, close(each, seen)]),
                )
              : value
            : close(value, seen);
    }
    // Only objects that declare their properties: closing a free-form object would
    // forbid every key (such a schema stays open, and strict mode refuses it).
    if (isSchemaObject(out.properties) && out.additionalProperties === undefined) {
      out.additionalProperties = false;
    }
    seen.delete(node);
    return out;
  };
  return close(schema, new Set()) as JsonSchemaObject;
}
