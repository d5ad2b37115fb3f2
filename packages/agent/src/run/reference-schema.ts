import type { JsonSchemaObject, ToolSpec } from '@mtpx/protocol';

/**
 * The JSON Schema of a reference: `{"$ref": "<call id>", "$path": "<JSON Pointer>"}`.
 * Both members are required, as strict modes demand (OpenAI's requires every property;
 * Anthropic's counts optional ones against a small budget); `"$path": ""` (the empty
 * pointer) takes the whole output. Accepted wherever a value goes in the schemas offered
 * to a provider that enforces them (see {@link schemaWithReferences}).
 */
export const REFERENCE_SCHEMA: Readonly<JsonSchemaObject> = Object.freeze({
  type: 'object',
  properties: {
    $ref: { type: 'string' },
    $path: { type: 'string' },
  },
  required: ['$ref', '$path'],
  additionalProperties: false,
});

/**
 * The name of the one shared definition of {@link REFERENCE_SCHEMA} in a schema's `$defs`.
 * @internal
 */
export const REFERENCE_DEFINITION = 'ref';

/** How {@link schemaWithReferences} writes the reference at each value position. */
export interface SchemaWithReferencesOptions {
  /**
   * `true`: one `$defs` entry holds {@link REFERENCE_SCHEMA} and each value position says
   * `{"$ref": "#/$defs/ref"}`; `false`: a copy of it at every value position.
   * Default: whichever is shorter — a copy for a schema with one value position, the
   * shared definition from two on.
   */
  shared?: boolean;
}

type Schema = Record<string, unknown>;

const isSchemaObject = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const mapValues = (record: Schema, map: (value: unknown) => unknown): Schema =>
  Object.fromEntries(Object.entries(record).map(([key, value]) => [key, map(value)]));

/**
 * A tool's input schema as sent to a provider that enforces schemas: wherever the
 * arguments hold a value — each property, each array item, each additional or pattern
 * property, recursively, through `anyOf` / `oneOf` / `allOf` branches and `$defs` — the
 * schema becomes `anyOf: [original, reference]`, so a schema-strict provider accepts
 * `{"$ref": "call_1", "$path": ""}` in place of the value. The reference is one shared
 * `$defs` entry, `{"$ref": "#/$defs/ref"}` at each position, or a copy of
 * {@link REFERENCE_SCHEMA} where that is shorter (see {@link SchemaWithReferencesOptions}).
 * The property's `description` moves up beside the `anyOf`, where models read it. The
 * arguments object itself is not wrapped (it must stay an object). The executor still
 * validates the RESOLVED arguments against the tool's original schema.
 *
 * @example
 * ```ts source="./reference-schema.examples.ts#schemaWithReferences"
 * const one = schemaWithReferences({ type: 'object', properties: { a: { type: 'number' } } });
 * // { type: 'object', properties: { a: { anyOf: [{ type: 'number' }, REFERENCE_SCHEMA] } } }
 * const two = schemaWithReferences({
 *   type: 'object',
 *   properties: { a: { type: 'number' }, b: { type: 'string' } },
 * });
 * // { type: 'object', properties: { a: { anyOf: [{ type: 'number' }, { $ref: '#/$defs/ref' }] }, … },
 * //   $defs: { ref: REFERENCE_SCHEMA } }
 * ```
 */
export function schemaWithReferences(
  schema: JsonSchemaObject,
  options: SchemaWithReferencesOptions = {},
): JsonSchemaObject {
  const positions = { count: 0 };
  const inline = container(schema, new Set(), REFERENCE_SCHEMA, positions) as JsonSchemaObject;
  if (options.shared === false || (options.shared === undefined && positions.count < 2)) {
    return inline;
  }
  const name = definitionName(schema);
  const wrapped = container(schema, new Set(), { $ref: `#/$defs/${name}` }, { count: 0 });
  const definitions = isSchemaObject(wrapped.$defs) ? wrapped.$defs : {};
  return { ...wrapped, $defs: { ...definitions, [name]: REFERENCE_SCHEMA } } as JsonSchemaObject;
}

/** `ref`, or `ref_2`, … when the schema already defines that name. */
function definitionName(schema: JsonSchemaObject): string {
  const taken = isSchemaObject(schema.$defs) ? schema.$defs : {};
  let name = REFERENCE_DEFINITION;
  for (let n = 2; name in taken; n += 1) name = `${REFERENCE_DEFINITION}_${n}`;
  return name;
}

/** A value position: the schema, or it OR a reference. */
function valueSchema(
  schema: unknown,
  ancestors: Set<object>,
  reference: Schema,
  positions: { count: number },
): unknown {
  if (schema === true || !isSchemaObject(schema) || ancestors.has(schema)) return schema;
  if (Object.keys(schema).length === 0) return schema; // `{}` already accepts a reference
  positions.count += 1;
  const { description, ...rest } = schema;
  const inner = container(rest, ancestors, reference, positions);
  return typeof description === 'string'
    ? { description, anyOf: [inner, reference] }
    : { anyOf: [inner, reference] };
}

/** A schema whose nested value positions accept references (itself unchanged). */
function container(
  schema: Schema,
  ancestors: Set<object>,
  reference: Schema,
  positions: { count: number },
): Schema {
  if (ancestors.has(schema)) return schema;
  ancestors.add(schema);
  const value = (nested: unknown) => valueSchema(nested, ancestors, reference, positions);
  const branch = (nested: unknown) =>
    isSchemaObject(nested) ? container(nested, ancestors, reference, positions) : nested;
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
export function specWithReferences(
  spec: ToolSpec,
  options: SchemaWithReferencesOptions = {},
): ToolSpec {
  return { ...spec, input_schema: schemaWithReferences(spec.input_schema, options) };
}
