import type { JsonSchemaObject } from '@mtpx/protocol';

type Schema = Record<string, unknown>;

const isSchemaObject = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The keywords OpenAI's strict mode (Structured Outputs, `strict: true` function tools)
 * accepts, from its "Supported schemas" documentation: types, `enum`/`const`, objects,
 * arrays, `anyOf` (never at the root), local `$ref` / `$defs`, and these constraints —
 * strings `pattern` and `format`; numbers `multipleOf`, `maximum`, `exclusiveMaximum`,
 * `minimum`, `exclusiveMinimum`; arrays `minItems`, `maxItems`.
 */
const openAIKeywords = new Set([
  'type',
  'description',
  'title',
  'enum',
  'const',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'anyOf',
  '$defs',
  'definitions',
  '$ref',
  'pattern',
  'format',
  'multipleOf',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'minItems',
  'maxItems',
]);

/**
 * The keywords Anthropic's strict tools accept (structured outputs' "JSON Schema
 * limitations"): types, `enum` of primitives, `const`, `default`, objects with
 * `additionalProperties: false`, `items` with `minItems` 0 or 1, `anyOf`, `allOf`, local
 * `$ref` / `$defs` / `definitions`, `format`, `pattern`. No numeric or length bounds.
 */
const anthropicKeywords = new Set([
  'type',
  'description',
  'title',
  'enum',
  'const',
  'default',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'minItems',
  'anyOf',
  'allOf',
  '$defs',
  'definitions',
  '$ref',
  'format',
  'pattern',
]);

const jsonTypes = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

/** OpenAI's documented size limits of one strict schema. */
export const OPENAI_STRICT_LIMITS = Object.freeze({
  /** Object properties in the whole schema. */
  properties: 5_000,
  /** Levels of nested objects. */
  nesting: 10,
  /** Characters of all property names, definition names, enum and const values. */
  stringLength: 120_000,
  /** Enum values in the whole schema. */
  enumValues: 1_000,
  /** A string enum of more than this many values … */
  largeEnum: 250,
  /** … may hold at most this many characters in all. */
  largeEnumLength: 15_000,
});

/** Anthropic's documented limits of strict tools, per request (all strict tools together). */
export const ANTHROPIC_STRICT_LIMITS = Object.freeze({
  /** Tools with `strict: true`. */
  tools: 20,
  /** Properties not in their object's `required`. */
  optionalParameters: 24,
  /** Schemas with `anyOf` or a `type` array. */
  unionParameters: 16,
});

/** What walking a schema found, for the size limits. */
interface SchemaCounts {
  properties: number;
  stringLength: number;
  enumValues: number;
  optionalParameters: number;
  unionParameters: number;
  deepestObject: number;
}

function isObjectSchema(schema: Schema): boolean {
  const type = schema.type;
  return (
    type === 'object' ||
    (Array.isArray(type) && type.includes('object')) ||
    isSchemaObject(schema.properties)
  );
}

interface WalkRules {
  keywords: ReadonlySet<string>;
  /** The rule of one schema node beyond its keywords (path for messages). */
  node: (schema: Schema, path: string, issues: string[]) => void;
}

/** Walks every subschema once, checking keywords and object rules, counting for the limits. */
function walk(root: Schema, rules: WalkRules): { issues: string[]; counts: SchemaCounts } {
  const issues: string[] = [];
  const counts: SchemaCounts = {
    properties: 0,
    stringLength: 0,
    enumValues: 0,
    optionalParameters: 0,
    unionParameters: 0,
    deepestObject: 0,
  };
  const visit = (schema: unknown, path: string, objectDepth: number, seen: Set<object>) => {
    if (!isSchemaObject(schema)) {
      issues.push(`${path}: a schema must be an object, got ${JSON.stringify(schema)}`);
      return;
    }
    if (seen.has(schema)) {
      issues.push(`${path}: the schema contains itself (a cycle of objects)`);
      return;
    }
    seen.add(schema);
    for (const key of Object.keys(schema)) {
      if (!rules.keywords.has(key)) issues.push(`${path}: "${key}" is not supported`);
    }
    const type = schema.type;
    const types = Array.isArray(type) ? type : type === undefined ? [] : [type];
    for (const each of types) {
      if (typeof each !== 'string' || !jsonTypes.has(each)) {
        issues.push(`${path}: type ${JSON.stringify(each)} is not a JSON Schema type`);
      }
    }
    if (Array.isArray(type) || Array.isArray(schema.anyOf)) counts.unionParameters += 1;
    if (Array.isArray(schema.enum)) {
      counts.enumValues += schema.enum.length;
      for (const value of schema.enum) counts.stringLength += String(value).length;
    }
    if (schema.const !== undefined) counts.stringLength += String(schema.const).length;
    rules.node(schema, path, issues);
    let depth = objectDepth;
    if (isObjectSchema(schema)) {
      depth += 1;
      counts.deepestObject = Math.max(counts.deepestObject, depth);
      const properties = isSchemaObject(schema.properties) ? schema.properties : {};
      const required = Array.isArray(schema.required) ? schema.required : [];
      for (const [name, property] of Object.entries(properties)) {
        counts.properties += 1;
        counts.stringLength += name.length;
        if (!required.includes(name)) counts.optionalParameters += 1;
        visit(property, `${path}/properties/${name}`, depth, seen);
      }
    }
    if (isSchemaObject(schema.additionalProperties)) {
      visit(schema.additionalProperties, `${path}/additionalProperties`, depth, seen);
    }
    if (schema.items !== undefined) visit(schema.items, `${path}/items`, depth, seen);
    for (const key of ['anyOf', 'allOf'] as const) {
      const branches = schema[key];
      if (Array.isArray(branches)) {
        branches.forEach((branch, index) => {
          visit(branch, `${path}/${key}/${index}`, objectDepth, seen);
        });
      }
    }
    for (const key of ['$defs', 'definitions'] as const) {
      const definitions = schema[key];
      if (isSchemaObject(definitions)) {
        for (const [name, definition] of Object.entries(definitions)) {
          counts.stringLength += name.length;
          visit(definition, `${path}/${key}/${name}`, objectDepth, seen);
        }
      }
    }
    seen.delete(schema);
  };
  visit(root, '#', 0, new Set());
  return { issues, counts };
}

/** The definition a local `$ref` names, or `undefined`. */
function localDefinition(root: Schema, ref: string): unknown {
  if (ref === '#') return root;
  const match = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(ref);
  if (!match) return undefined;
  const definitions = root[match[1] as string];
  return isSchemaObject(definitions) ? definitions[match[2] as string] : undefined;
}

/** The object rules both providers share: closed objects, local references that resolve. */
function commonNodeRules(root: Schema, schema: Schema, path: string, issues: string[]) {
  if (isObjectSchema(schema) && schema.additionalProperties !== false) {
    issues.push(`${path}: an object must set "additionalProperties": false`);
  }
  if (schema.$ref !== undefined) {
    if (typeof schema.$ref !== 'string' || localDefinition(root, schema.$ref) === undefined) {
      issues.push(`${path}: "$ref" must name a local definition, got ${String(schema.$ref)}`);
    }
  }
  if (schema.required !== undefined && !Array.isArray(schema.required)) {
    issues.push(`${path}: "required" must be an array`);
  }
}

/** Whether a definition reaches itself through `$ref` (Anthropic refuses recursive schemas). */
function hasRecursiveRef(root: Schema): boolean {
  const refsOf = (schema: unknown, out: string[]): string[] => {
    if (Array.isArray(schema)) for (const each of schema) refsOf(each, out);
    else if (isSchemaObject(schema)) {
      for (const [key, value] of Object.entries(schema)) {
        if (key === '$ref' && typeof value === 'string') out.push(value);
        else if (key !== 'enum' && key !== 'const' && key !== 'default') refsOf(value, out);
      }
    }
    return out;
  };
  const reaches = (ref: string, target: string, seen: Set<string>): boolean => {
    if (seen.has(ref)) return false;
    seen.add(ref);
    const definition = localDefinition(root, ref);
    if (definition === undefined) return false;
    // The root's own references are walked without its definitions (they are walked as refs).
    const scope =
      definition === root
        ? Object.fromEntries(
            Object.entries(root).filter(([key]) => key !== '$defs' && key !== 'definitions'),
          )
        : definition;
    return refsOf(scope, []).some((next) => next === target || reaches(next, target, seen));
  };
  const all = refsOf(root, []);
  return all.some((ref) => reaches(ref, ref, new Set()));
}

/**
 * Why OpenAI would refuse `schema` as the parameters of a `strict: true` function tool, by
 * its documented rules: the root is an object (not `anyOf`); every object sets
 * `additionalProperties: false` and lists every property in `required`; only the supported
 * keywords and types; `$ref` only to local definitions; at most 5,000 properties, 10 levels
 * of nested objects, 120,000 characters of names and enum/const values, 1,000 enum values.
 * An empty list means strict mode accepts it.
 *
 * @example
 * ```ts
 * openAIStrictSchemaIssues({ type: 'object', properties: { a: { type: 'number' } } });
 * // ['#: an object must set "additionalProperties": false', '#: every property must be required (missing: a)']
 * ```
 */
export function openAIStrictSchemaIssues(schema: JsonSchemaObject): string[] {
  const root = schema as Schema;
  const { issues, counts } = walk(root, {
    keywords: openAIKeywords,
    node: (node, path, found) => {
      commonNodeRules(root, node, path, found);
      if (isObjectSchema(node)) {
        const properties = isSchemaObject(node.properties) ? Object.keys(node.properties) : [];
        const required = Array.isArray(node.required) ? node.required : [];
        const missing = properties.filter((name) => !required.includes(name));
        if (missing.length > 0) {
          found.push(`${path}: every property must be required (missing: ${missing.join(', ')})`);
        }
      }
      if (node.$ref !== undefined && Object.keys(node).some((key) => key !== '$ref')) {
        found.push(`${path}: "$ref" must stand alone`);
      }
      if (Array.isArray(node.enum) && node.enum.length > OPENAI_STRICT_LIMITS.largeEnum) {
        const length = node.enum.reduce((sum: number, value) => sum + String(value).length, 0);
        if (length > OPENAI_STRICT_LIMITS.largeEnumLength) {
          found.push(`${path}: an enum of ${node.enum.length} values holds ${length} characters`);
        }
      }
    },
  });
  if (root.type !== 'object') issues.unshift('#: the root must be of type "object"');
  if (root.anyOf !== undefined) issues.unshift('#: the root must not be "anyOf"');
  if (counts.properties > OPENAI_STRICT_LIMITS.properties) {
    issues.push(`${counts.properties} object properties (at most 5,000)`);
  }
  if (counts.deepestObject > OPENAI_STRICT_LIMITS.nesting) {
    issues.push(`${counts.deepestObject} levels of nested objects (at most 10)`);
  }
  if (counts.stringLength > OPENAI_STRICT_LIMITS.stringLength) {
    issues.push(`${counts.stringLength} characters of names and values (at most 120,000)`);
  }
  if (counts.enumValues > OPENAI_STRICT_LIMITS.enumValues) {
    issues.push(`${counts.enumValues} enum values (at most 1,000)`);
  }
  return issues;
}

/** What one strict Anthropic tool spends of the request's limits. */
export interface AnthropicStrictCost {
  optionalParameters: number;
  unionParameters: number;
}

/**
 * Why Anthropic would refuse `schema` as the `input_schema` of a strict tool, by its
 * documented rules — every object sets `additionalProperties: false`; only the supported
 * keywords (no numeric or length bounds, `minItems` only 0 or 1); `enum` of primitives;
 * local, non-recursive `$ref` — and what it spends of the request's limits
 * ({@link ANTHROPIC_STRICT_LIMITS}: 24 optional and 16 union-typed parameters in all).
 *
 * @example
 * ```ts
 * anthropicStrictSchemaIssues({ type: 'object', properties: {}, additionalProperties: false });
 * // { issues: [], cost: { optionalParameters: 0, unionParameters: 0 } }
 * ```
 */
export function anthropicStrictSchemaIssues(schema: JsonSchemaObject): {
  issues: string[];
  cost: AnthropicStrictCost;
} {
  const root = schema as Schema;
  const { issues, counts } = walk(root, {
    keywords: anthropicKeywords,
    node: (node, path, found) => {
      commonNodeRules(root, node, path, found);
      if (node.minItems !== undefined && node.minItems !== 0 && node.minItems !== 1) {
        found.push(`${path}: "minItems" may only be 0 or 1`);
      }
      if (
        Array.isArray(node.enum) &&
        node.enum.some((value) => typeof value === 'object' && value !== null)
      ) {
        found.push(`${path}: "enum" may hold only strings, numbers, booleans and null`);
      }
    },
  });
  if (root.type !== 'object') issues.unshift('#: the root must be of type "object"');
  if (hasRecursiveRef(root)) issues.push('#: recursive schemas are not supported');
  return {
    issues,
    cost: {
      optionalParameters: counts.optionalParameters,
      unionParameters: counts.unionParameters,
    },
  };
}

/**
 * A tool schema prepared for a strict tool: every object schema that declares
 * `properties` and leaves `additionalProperties` unset gets `false` (both APIs require
 * it; the model then writes only declared properties), and `$schema` is dropped.
 * Everything else is kept.
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

/**
 * Where, in a call's arguments, `null` stands for "left out": per object, the properties a
 * strict schema made required-but-nullable, and the plans of its nested values.
 */
export interface NullableOptionals {
  /** Properties of this object whose `null` means the property was left out. */
  drop: Set<string>;
  /** The plans of this object's property values, by property name. */
  properties: Map<string, NullableOptionals>;
  /** The plan of each item, when this value is an array. */
  items?: NullableOptionals;
  /** Local `$ref`s here (`#`, `#/$defs/x`) whose plans apply too. */
  refs: string[];
}

const newPlan = (): NullableOptionals => ({ drop: new Set(), properties: new Map(), refs: [] });

const isEmptyPlan = (plan: NullableOptionals) =>
  plan.drop.size === 0 && plan.properties.size === 0 && !plan.items && plan.refs.length === 0;

/** Adds `other` to `plan` (the branches of an `anyOf` apply to the same value). */
function mergePlan(plan: NullableOptionals, other: NullableOptionals): void {
  for (const name of other.drop) plan.drop.add(name);
  for (const [name, nested] of other.properties) {
    const mine = plan.properties.get(name);
    if (mine === undefined) plan.properties.set(name, nested);
    else mergePlan(mine, nested);
  }
  if (other.items !== undefined) {
    if (plan.items === undefined) plan.items = other.items;
    else mergePlan(plan.items, other.items);
  }
  plan.refs.push(...other.refs);
}

const acceptsNull = (schema: unknown): boolean => {
  if (!isSchemaObject(schema) || Object.keys(schema).length === 0) return true;
  const type = schema.type;
  if (type === 'null' || (Array.isArray(type) && type.includes('null'))) return true;
  if (Array.isArray(schema.enum)) return schema.enum.includes(null);
  return Array.isArray(schema.anyOf) && schema.anyOf.some(acceptsNull);
};

/** `schema`, or null: a type array for a primitive, else `anyOf` (the forms OpenAI documents). */
function orNull(schema: Schema): Schema {
  if (Array.isArray(schema.anyOf)) return { ...schema, anyOf: [...schema.anyOf, { type: 'null' }] };
  const primitive = ['string', 'number', 'integer', 'boolean'].includes(String(schema.type));
  if (primitive && schema.enum === undefined && schema.const === undefined) {
    return { ...schema, type: [schema.type, 'null'] };
  }
  const { description, ...rest } = schema;
  const union = { anyOf: [rest, { type: 'null' }] };
  return typeof description === 'string' ? { description, ...union } : union;
}

/** A tool schema ready for OpenAI's strict mode, and how to read its `null`s back. */
export interface OpenAIStrictParameters {
  /** The schema to send with `strict: true`. */
  schema: JsonSchemaObject;
  /** The plan for the arguments object. */
  nullable: NullableOptionals;
  /** The plans of the schema's local `$ref` targets (`#`, `#/$defs/x`). */
  definitions: Map<string, NullableOptionals>;
}

/**
 * A tool schema as OpenAI's strict mode wants it, when it can be made so without changing
 * what the tool accepts: objects closed ({@link closeObjectSchemas}); every optional
 * property required but nullable (`"type": ["string", "null"]`, or `null` added to its
 * `anyOf`), and `default` dropped (strict mode refuses it); with the plan to turn those
 * `null`s back into left-out properties before the call runs ({@link dropNullOptionals}).
 * `undefined` when the result still breaks a strict rule ({@link openAIStrictSchemaIssues}).
 *
 * @example
 * ```ts
 * openAIStrictParameters({ type: 'object', properties: { q: { type: 'string' } } })?.schema;
 * // { type: 'object', properties: { q: { type: ['string', 'null'] } }, required: ['q'], additionalProperties: false }
 * ```
 */
export function openAIStrictParameters(
  schema: JsonSchemaObject,
): OpenAIStrictParameters | undefined {
  const definitions = new Map<string, NullableOptionals>();
  const convert = (
    node: unknown,
    seen: Set<object>,
  ): { schema: unknown; plan: NullableOptionals } => {
    const plan = newPlan();
    if (!isSchemaObject(node) || seen.has(node)) return { schema: node, plan };
    seen.add(node);
    const { default: _default, ...out } = node;
    if (isSchemaObject(node.properties)) {
      const required = Array.isArray(node.required) ? node.required.map(String) : [];
      const properties: Schema = {};
      for (const [name, property] of Object.entries(node.properties)) {
        const converted = convert(property, seen);
        if (!isEmptyPlan(converted.plan)) plan.properties.set(name, converted.plan);
        let sent = converted.schema;
        if (!required.includes(name) && isSchemaObject(sent) && !acceptsNull(property)) {
          sent = orNull(sent);
          plan.drop.add(name);
        }
        properties[name] = sent;
      }
      out.properties = properties;
      out.required = Object.keys(node.properties);
    }
    if (node.items !== undefined) {
      const converted = convert(node.items, seen);
      out.items = converted.schema;
      if (!isEmptyPlan(converted.plan)) plan.items = converted.plan;
    }
    if (Array.isArray(node.anyOf)) {
      out.anyOf = node.anyOf.map((branch) => {
        const converted = convert(branch, seen);
        mergePlan(plan, converted.plan);
        return converted.schema;
      });
    }
    for (const key of ['$defs', 'definitions'] as const) {
      const defs = node[key];
      if (!isSchemaObject(defs)) continue;
      out[key] = Object.fromEntries(
        Object.entries(defs).map(([name, definition]) => {
          const converted = convert(definition, seen);
          definitions.set(`#/${key}/${name}`, converted.plan);
          return [name, converted.schema];
        }),
      );
    }
    if (typeof node.$ref === 'string') plan.refs.push(node.$ref);
    seen.delete(node);
    return { schema: out, plan };
  };
  const { schema: converted, plan } = convert(closeObjectSchemas(schema), new Set());
  if (openAIStrictSchemaIssues(converted as JsonSchemaObject).length > 0) return undefined;
  definitions.set('#', plan);
  return { schema: converted as JsonSchemaObject, nullable: plan, definitions };
}

/**
 * A call's arguments with each `null` that stands for a left-out optional property (see
 * {@link openAIStrictParameters}) removed, so the tool sees what its own schema describes.
 * A `null` the original schema allows is kept. The arguments are copied, never changed.
 *
 * @example
 * ```ts
 * const strict = openAIStrictParameters({ type: 'object', properties: { q: { type: 'string' } } });
 * dropNullOptionals({ q: null }, strict!); // {}
 * ```
 */
export function dropNullOptionals<T>(value: T, strict: OpenAIStrictParameters): T {
  const apply = (node: unknown, plans: NullableOptionals[], depth: number): unknown => {
    if (depth > 64 || plans.length === 0 || typeof node !== 'object' || node === null) return node;
    const all = expand(plans, strict.definitions);
    if (Array.isArray(node)) {
      const items = all.flatMap((plan) => (plan.items ? [plan.items] : []));
      return items.length === 0 ? node : node.map((each) => apply(each, items, depth + 1));
    }
    const out: Record<string, unknown> = {};
    for (const [key, nested] of Object.entries(node)) {
      if (nested === null && all.some((plan) => plan.drop.has(key))) continue;
      const inner = all.flatMap((plan) => {
        const found = plan.properties.get(key);
        return found ? [found] : [];
      });
      out[key] = apply(nested, inner, depth + 1);
    }
    return out;
  };
  return apply(value, [strict.nullable], 0) as T;
}

/** The plans with those their local `$ref`s name (each once). */
function expand(
  plans: NullableOptionals[],
  definitions: Map<string, NullableOptionals>,
): NullableOptionals[] {
  const out: NullableOptionals[] = [];
  const queue = [...plans];
  while (queue.length > 0) {
    const plan = queue.shift() as NullableOptionals;
    if (out.includes(plan)) continue;
    out.push(plan);
    for (const ref of plan.refs) {
      const named = definitions.get(ref);
      if (named) queue.push(named);
    }
  }
  return out;
}
