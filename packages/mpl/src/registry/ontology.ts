import type { JsonValue } from '@mtpx/protocol';

/** One ontology constraint a payload broke. */
export interface OntologyViolation {
  /** `allowed_values:<path>`, `relationship:<name>`, `type:<path>` or `cardinality:<path>`. */
  rule: string;
  /** Dotted path of the field (`context.user_id`). */
  path: string;
  message: string;
}

/** Ontology adherence: 1 − violations ÷ constraints checked (the reference's formula). */
export interface OntologyReport {
  score: number;
  checked: number;
  violations: OntologyViolation[];
}

/** An `ontology.json` compiled once: {@link CompiledOntology.check} scores a payload. */
export interface CompiledOntology {
  /** Number of constraints the file declares (0: nothing to score). */
  readonly constraints: number;
  check(payload: JsonValue): OntologyReport;
}

type Check = (payload: JsonValue) => OntologyViolation | undefined;

function valueAt(payload: JsonValue, path: string): JsonValue | undefined {
  let current: JsonValue | undefined = payload;
  for (const part of path.split('.')) {
    if (current === null || typeof current !== 'object' || Array.isArray(current)) return undefined;
    current = Object.hasOwn(current, part) ? current[part] : undefined;
  }
  return current;
}

const present = (value: JsonValue | undefined) => value !== undefined && value !== null;
const record = (value: unknown): Record<string, unknown> | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
const text = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;

const semanticTypes: Record<string, RegExp> = {
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
  snake_case: /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/,
  email: /^[^@\s]+@[^@\s]+\.[^@\s]+$/,
  url: /^[a-z][a-z0-9+.-]*:\/\/\S+$/i,
  non_empty: /\S/,
};

function typeCheck(path: string, spec: Record<string, unknown>, message?: string): Check {
  const kind = text(spec.constraint) ?? text(spec.semantic_type);
  const pattern = text(spec.pattern);
  const regex = pattern ? new RegExp(pattern, 'u') : kind ? semanticTypes[kind] : undefined;
  const min = typeof spec.min === 'number' ? spec.min : undefined;
  const max = typeof spec.max === 'number' ? spec.max : undefined;
  return (payload) => {
    const value = valueAt(payload, path);
    if (!present(value)) return undefined;
    const broken =
      (regex !== undefined && (typeof value !== 'string' || !regex.test(value))) ||
      (min !== undefined && (typeof value !== 'number' || value < min)) ||
      (max !== undefined && (typeof value !== 'number' || value > max));
    return broken
      ? {
          rule: `type:${path}`,
          path,
          message: message ?? `${path} is not a valid ${kind ?? 'value'}`,
        }
      : undefined;
  };
}

function relationshipCheck(spec: Record<string, unknown>): Check | undefined {
  const name = text(spec.name) ?? text(spec.id) ?? 'relationship';
  const ifField = text(spec.if_field) ?? text(spec.from);
  const thenField = text(spec.then_field) ?? text(spec.to);
  if (!ifField || !thenField) return undefined;
  const type = text(spec.type) ?? text(spec.relation_type);
  const condition = text(spec.then_condition);
  const message = text(spec.message) ?? `${name}: ${ifField} ${type ?? ''} ${thenField}`.trim();
  const applies = (payload: JsonValue) => {
    const value = valueAt(payload, ifField);
    if (!present(value)) return false;
    return 'if_value' in spec
      ? JSON.stringify(value) === JSON.stringify(spec.if_value)
      : value !== false;
  };
  return (payload) => {
    if (!applies(payload)) return undefined;
    const then = valueAt(payload, thenField);
    let broken = false;
    if (condition === 'must_exist') broken = !present(then);
    else if (condition === 'must_be_absent') broken = present(then);
    else if (condition === 'must_be_zero_or_absent') broken = present(then) && then !== 0;
    else if (condition === 'may_exist') broken = false;
    else if (type === 'implies') broken = !present(then);
    else if (type === 'excludes') broken = present(then);
    return broken ? { rule: `relationship:${name}`, path: thenField, message } : undefined;
  };
}

/**
 * Compiles an `ontology.json`. Both the reference registry's file layout and the
 * reference library's are read: `allowed_values` (path → values), `type_constraints`
 * (a list of `{ field, constraint }` or a map of path → `{ semantic_type, pattern, min, max }`),
 * `relationships` (`{ name, type, if_field, if_value, then_field, then_condition }` or
 * `{ id, from, to, relation_type }`: implies, excludes) and `cardinality` (path →
 * `{ min, max, unique }`). Unknown members are ignored.
 */
export function compileOntology(input: unknown): CompiledOntology {
  const spec = record(input) ?? {};
  const checks: Check[] = [];
  for (const [path, allowed] of Object.entries(record(spec.allowed_values) ?? {})) {
    if (!Array.isArray(allowed)) continue;
    const keys = new Set(allowed.map((value) => JSON.stringify(value)));
    checks.push((payload) => {
      const value = valueAt(payload, path);
      return present(value) && !keys.has(JSON.stringify(value))
        ? {
            rule: `allowed_values:${path}`,
            path,
            message: `${path} is not one of ${[...keys].join(', ')}`,
          }
        : undefined;
    });
  }
  const types = spec.type_constraints;
  if (Array.isArray(types)) {
    for (const item of types) {
      const constraint = record(item);
      const field = text(constraint?.field);
      if (constraint && field) checks.push(typeCheck(field, constraint, text(constraint.message)));
    }
  } else
    for (const [path, item] of Object.entries(record(types) ?? {})) {
      const constraint = record(item);
      if (constraint) checks.push(typeCheck(path, constraint, text(constraint.message)));
    }
  for (const item of Array.isArray(spec.relationships) ? spec.relationships : []) {
    const check = relationshipCheck(record(item) ?? {});
    if (check) checks.push(check);
  }
  for (const [path, item] of Object.entries(record(spec.cardinality) ?? {})) {
    const constraint = record(item) ?? {};
    const min = typeof constraint.min === 'number' ? constraint.min : 0;
    const max = typeof constraint.max === 'number' ? constraint.max : Number.POSITIVE_INFINITY;
    const unique = constraint.unique === true;
    checks.push((payload) => {
      const value = valueAt(payload, path);
      if (!Array.isArray(value)) return undefined;
      const distinct = new Set(value.map((member) => JSON.stringify(member))).size;
      return value.length < min || value.length > max || (unique && distinct !== value.length)
        ? { rule: `cardinality:${path}`, path, message: `${path} has ${value.length} items` }
        : undefined;
    });
  }
  return {
    constraints: checks.length,
    check(payload) {
      const violations: OntologyViolation[] = [];
      for (const check of checks) {
        const violation = check(payload);
        if (violation) violations.push(violation);
      }
      const checked = checks.length;
      return { score: checked === 0 ? 1 : 1 - violations.length / checked, checked, violations };
    },
  };
}
