import type { JsonSchemaObject } from '@mtpx/protocol';
import { commonNodeRules, isObjectSchema, isSchemaObject, type Schema, walk } from './schema-walk';

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

/** OpenAI's documented size limits of one strict schema. @internal */
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

/**
 * Why OpenAI would refuse `schema` as the parameters of a `strict: true` function tool, by
 * its documented rules: the root is an object (not `anyOf`); every object sets
 * `additionalProperties: false` and lists every property in `required`; only the supported
 * keywords and types; `$ref` only to local definitions; at most 5,000 properties, 10 levels
 * of nested objects, 120,000 characters of names and enum/const values, 1,000 enum values.
 * An empty list means strict mode accepts it.
 *
 * @example
 * ```ts source="./strict-schemas.examples.ts#openAIStrictSchemaIssues"
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
