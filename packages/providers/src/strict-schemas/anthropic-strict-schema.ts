import type { JsonSchemaObject } from '@mtpx/protocol';
import { commonNodeRules, hasRecursiveRef, type Schema, walk } from './schema-walk';

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

/**
 * Anthropic's documented limits of strict tools, per request (all strict tools together).
 *
 * @internal
 */
export const ANTHROPIC_STRICT_LIMITS = Object.freeze({
  /** Tools with `strict: true`. */
  tools: 20,
  /** Properties not in their object's `required`. */
  optionalParameters: 24,
  /** Schemas with `anyOf` or a `type` array. */
  unionParameters: 16,
});

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
 * (Anthropic's strict limits: 24 optional and 16 union-typed parameters in all).
 *
 * @example
 * ```ts source="./strict-schemas.examples.ts#anthropicStrictSchemaIssues"
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
