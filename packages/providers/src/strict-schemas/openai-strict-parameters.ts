import type { JsonSchemaObject } from '@mtpx/protocol';
import { closeObjectSchemas } from './close-object-schemas';
import { openAIStrictSchemaIssues } from './openai-strict-schema';
import { isSchemaObject, type Schema } from './schema-walk';

/**
 * Where, in a call's arguments, `null` stands for "left out": per object, the properties a
 * strict schema made required-but-nullable, and the plans of its nested values.
 *
 * @internal
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

/** A tool schema ready for OpenAI's strict mode, and how to read its `null`s back. @internal */
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
 * ```ts source="./strict-schemas.examples.ts#openAIStrictParameters"
 * openAIStrictParameters({ type: 'object', properties: { q: { type: 'string' } } })?.schema;
 * // { type: 'object', properties: { q: { type: ['string', 'null'] } }, required: ['q'], additionalProperties: false }
 * ```
 *
 * @internal
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
 * ```ts source="./strict-schemas.examples.ts#dropNullOptionals"
 * const strict = openAIStrictParameters({ type: 'object', properties: { q: { type: 'string' } } });
 * if (strict !== undefined) dropNullOptionals({ q: null }, strict); // {}
 * ```
 *
 * @internal
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
