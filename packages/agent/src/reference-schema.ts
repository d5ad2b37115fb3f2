import type { JsonSchemaObject, ToolSpec } from '@mtpx/protocol';

/**
 * The JSON Schema of a reference: `{"$ref": "<call id>"}`, optionally with `"$path"` (a
 * JSON Pointer into the referenced output). Kept short: it is repeated at every value
 * position, and the built-in instructions explain it.
 */
export const REFERENCE_SCHEMA: Readonly<JsonSchemaObject> = Object.freeze({
  type: 'object',
  properties: { $ref: { type: 'string' }, $path: { type: 'string' } },
  required: ['$ref'],
  additionalProperties: false,
});

type Schema = Record<string, unknown>;

const isSchemaObject = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const mapValues = (record: Schema, map: (value: unknown) => unknown): Schema =>
  Object.fromEntries(Object.entries(record).map(([key, value]) => [key, map(value)]));

/**
 * A tool's input schema as sent to a model: wherever the arguments hold a value — each
 * property, each array item, each additional or pattern property, recursively, through
 * `anyOf` / `oneOf` / `allOf` branches and `$defs` — the schema becomes
 * `anyOf: [original, REFERENCE_SCHEMA]`, so a schema-strict provider accepts
 * `{"$ref": "call_1"}` in place of the value. The property's `description` moves up
 * beside the `anyOf`, where models read it. The arguments object itself is not wrapped
 * (it must stay an object). The executor still validates the RESOLVED arguments against
 * the tool's original schema.
 *
 * @example
 * ```ts
 * schemaWithReferences({ type: 'object', properties: { a: { type: 'number' } } });
 * // { type: 'object', properties: { a: { anyOf: [{ type: 'number' }, REFERENCE_SCHEMA] } } }
 * ```
 */
export function schemaWithReferences(schema: JsonSchemaObject): JsonSchemaObject {
  return container(schema, new Set()) as JsonSchemaObject;
}

/** A value position: the schema, or it OR a reference. */
function valueSchema(schema: unknown, ancestors: Set<object>): unknown {
  if (schema === true || !isSchemaObject(schema) || ancestors.has(schema)) return schema;
  if (Object.keys(schema).length === 0) return schema; // `{}` already accepts a reference
  const { description, ...rest } = schema;
  const inner = container(rest, ancestors);
  return typeof description === 'string'
    ? { description, anyOf: [inner, REFERENCE_SCHEMA] }
    : { anyOf: [inner, REFERENCE_SCHEMA] };
}

/** A schema whose nested value positions accept references (itself unchanged). */
function container(schema: Schema, ancestors: Set<object>): Schema {
  if (ancestors.has(schema)) return schema;
  ancestors.add(schema);
  const value = (nested: unknown) => valueSchema(nested, ancestors);
  const branch = (nested: unknown) =>
    isSchemaObject(nested) ? container(nested, ancestors) : nested;
  const out: Schema = { ...schema };
  if (isSchemaObject(schema.properties)) out.properties = mapValues(schema.properties, value);
  if (isSchemaObject(schema.patternProperties)) {
    out.patternProperties = mapValues(schema.patternProperties, value);
  }
  if (isSchemaObject(schema.additionalProperties)) {
    out.additionalProperties = value(schema.additionalProperties);
  }
  if (Array.isArray(schema.items)) out.items = schema.items.map(value);
  else if (schema.items !== undefined) out.items = value(schema.items);
  if (Array.isArray(schema.prefixItems)) out.prefixItems = schema.prefixItems.map(value);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const branches = schema[key];
    if (Array.isArray(branches)) out[key] = branches.map(branch);
  }
  for (const key of ['$defs', 'definitions'] as const) {
    const definitions = schema[key];
    if (isSchemaObject(definitions)) out[key] = mapValues(definitions, branch);
  }
  ancestors.delete(schema);
  return out;
}

/** A ToolSpec whose input schema accepts references (see {@link schemaWithReferences}). */
export function specWithReferences(spec: ToolSpec): ToolSpec {
  return { ...spec, input_schema: schemaWithReferences(spec.input_schema) };
}
