import { describeValue } from '@mtpx/protocol/internal';
import type { ErrorObject } from 'ajv';
import type { z } from 'zod';

/** At most this many problems are spelled out; the rest are counted. */
const maxProblems = 12;

/**
 * One line per failing path, written for the model that must fix its call:
 * `"a": expected number, got string "15"`.
 */
export function describeProblems(problems: readonly string[]): string {
  const unique = [...new Set(problems)];
  const shown = unique.slice(0, maxProblems);
  const more = unique.length - shown.length;
  return more > 0 ? `${shown.join('; ')}; and ${more} more` : shown.join('; ');
}

/** `a.items[0]["odd key"]` for path segments; `arguments` for the top level. */
export function renderPath(segments: readonly (string | number | symbol)[]): string {
  if (segments.length === 0) return 'arguments';
  let rendered = '';
  for (const segment of segments) {
    if (typeof segment === 'number' || /^(0|[1-9][0-9]*)$/.test(String(segment))) {
      rendered += `[${String(segment)}]`;
    } else if (typeof segment === 'string' && /^[A-Za-z_$][\w$-]*$/.test(segment)) {
      rendered += rendered === '' ? segment : `.${segment}`;
    } else {
      rendered += `[${JSON.stringify(String(segment))}]`;
    }
  }
  return `"${rendered}"`;
}

function pointerSegments(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}

const listValues = (values: readonly unknown[]) =>
  values.map((value) => JSON.stringify(value)).join(', ');
const typeList = (type: unknown) => (Array.isArray(type) ? type.join(' or ') : String(type));

/** Ajv's errors (run with `allErrors` and `verbose`) as one line per failing path. */
export function formatAjvErrors(errors: readonly ErrorObject[]): string[] {
  // anyOf / oneOf report every branch's errors too; fold them into the composite's line.
  const composites = errors.filter(
    (error) => error.keyword === 'anyOf' || error.keyword === 'oneOf',
  );
  const branchOf = (error: ErrorObject) =>
    composites.find(
      (composite) => composite !== error && error.schemaPath.startsWith(`${composite.schemaPath}/`),
    );
  const lines: string[] = [];
  for (const error of errors) {
    if (error.keyword === 'if' || branchOf(error) !== undefined) continue;
    const segments = pointerSegments(error.instancePath);
    const got = `got ${describeValue(error.data)}`;
    const params = error.params as Record<string, unknown>;
    switch (error.keyword) {
      case 'required':
        lines.push(
          `${renderPath([...segments, String(params.missingProperty)])}: required property is missing`,
        );
        break;
      case 'dependentRequired':
        lines.push(
          `${renderPath([...segments, String(params.missingProperty)])}: required when "${String(params.property)}" is present`,
        );
        break;
      case 'additionalProperties':
      case 'unevaluatedProperties': {
        const property = String(params.additionalProperty ?? params.unevaluatedProperty);
        const known = Object.keys(
          (error.parentSchema as { properties?: object } | undefined)?.properties ?? {},
        );
        const allowed =
          known.length > 0 ? ` (allowed: ${known.map((key) => `"${key}"`).join(', ')})` : '';
        lines.push(`${renderPath([...segments, property])}: unexpected property${allowed}`);
        break;
      }
      case 'type':
        lines.push(`${renderPath(segments)}: expected ${typeList(params.type)}, ${got}`);
        break;
      case 'enum':
        lines.push(
          `${renderPath(segments)}: expected one of ${listValues(params.allowedValues as unknown[])}, ${got}`,
        );
        break;
      case 'const':
        lines.push(
          `${renderPath(segments)}: expected ${JSON.stringify(params.allowedValue)}, ${got}`,
        );
        break;
      case 'minimum':
      case 'maximum':
      case 'exclusiveMinimum':
      case 'exclusiveMaximum':
        lines.push(
          `${renderPath(segments)}: expected a number ${String(params.comparison)} ${String(params.limit)}, ${got}`,
        );
        break;
      case 'multipleOf':
        lines.push(
          `${renderPath(segments)}: expected a multiple of ${String(params.multipleOf)}, ${got}`,
        );
        break;
      case 'minLength':
      case 'maxLength':
        lines.push(
          `${renderPath(segments)}: expected ${error.keyword === 'minLength' ? 'at least' : 'at most'} ${String(params.limit)} characters, ${got}`,
        );
        break;
      case 'minItems':
      case 'maxItems':
        lines.push(
          `${renderPath(segments)}: expected ${error.keyword === 'minItems' ? 'at least' : 'at most'} ${String(params.limit)} items, ${got}`,
        );
        break;
      case 'minProperties':
      case 'maxProperties':
        lines.push(
          `${renderPath(segments)}: expected ${error.keyword === 'minProperties' ? 'at least' : 'at most'} ${String(params.limit)} properties`,
        );
        break;
      case 'uniqueItems':
        lines.push(
          `${renderPath(segments)}: expected unique items, but items ${Math.min(Number(params.i), Number(params.j))} and ${Math.max(Number(params.i), Number(params.j))} are equal`,
        );
        break;
      case 'pattern':
        lines.push(
          `${renderPath(segments)}: expected a string matching /${String(params.pattern)}/, ${got}`,
        );
        break;
      case 'format':
        lines.push(
          `${renderPath(segments)}: expected a string in the "${String(params.format)}" format, ${got}`,
        );
        break;
      case 'anyOf':
      case 'oneOf':
        lines.push(`${renderPath(segments)}: ${describeComposite(error, errors)}, ${got}`);
        break;
      case 'false schema':
        lines.push(`${renderPath(segments)}: not allowed here`);
        break;
      case 'not':
        lines.push(`${renderPath(segments)}: matches a shape that is not allowed, ${got}`);
        break;
      default:
        lines.push(
          `${renderPath(segments)}: ${error.message ?? `fails "${error.keyword}"`}, ${got}`,
        );
    }
  }
  return lines;
}

/** `expected string or number` when every branch failed on its type, else a general line. */
function describeComposite(composite: ErrorObject, errors: readonly ErrorObject[]): string {
  if (
    composite.keyword === 'oneOf' &&
    Array.isArray((composite.params as { passingSchemas?: unknown }).passingSchemas)
  ) {
    return 'matches more than one of the allowed shapes (it must match exactly one)';
  }
  const branches = errors.filter((error) =>
    error.schemaPath.startsWith(`${composite.schemaPath}/`),
  );
  const typeOnly =
    branches.length > 0 &&
    branches.every(
      (error) => error.keyword === 'type' && error.instancePath === composite.instancePath,
    );
  if (typeOnly) {
    const types = [
      ...new Set(branches.map((error) => typeList((error.params as { type: unknown }).type))),
    ];
    return `expected ${types.join(' or ')}`;
  }
  return 'expected a value matching one of the allowed shapes';
}

/** zod's issues as one line per failing path; `input` is what was parsed. */
export function formatZodIssues(issues: readonly z.core.$ZodIssue[], input: unknown): string[] {
  const lines: string[] = [];
  for (const issue of issues) {
    const value = valueAt(input, issue.path);
    const got = `got ${describeValue(value)}`;
    const where = renderPath(issue.path);
    switch (issue.code) {
      case 'invalid_type':
        lines.push(
          value === undefined && issue.expected !== 'undefined'
            ? `${where}: required property is missing`
            : `${where}: expected ${issue.expected}, ${got}`,
        );
        break;
      case 'too_small':
      case 'too_big': {
        const small = issue.code === 'too_small';
        const limit = String(small ? issue.minimum : issue.maximum);
        const inclusive = issue.inclusive !== false;
        const comparison = small ? (inclusive ? '>=' : '>') : inclusive ? '<=' : '<';
        const bound = small ? 'at least' : 'at most';
        if (issue.origin === 'string')
          lines.push(`${where}: expected ${bound} ${limit} characters, ${got}`);
        else if (issue.origin === 'array' || issue.origin === 'set')
          lines.push(`${where}: expected ${bound} ${limit} items, ${got}`);
        else if (issue.origin === 'number' || issue.origin === 'int' || issue.origin === 'bigint')
          lines.push(`${where}: expected a number ${comparison} ${limit}, ${got}`);
        else lines.push(`${where}: ${issue.message}, ${got}`);
        break;
      }
      case 'invalid_value':
        lines.push(
          issue.values.length === 1
            ? `${where}: expected ${JSON.stringify(issue.values[0])}, ${got}`
            : `${where}: expected one of ${listValues(issue.values)}, ${got}`,
        );
        break;
      case 'unrecognized_keys':
        for (const key of issue.keys)
          lines.push(`${renderPath([...issue.path, key])}: unexpected property`);
        break;
      case 'invalid_format':
        lines.push(`${where}: expected a string in the "${issue.format}" format, ${got}`);
        break;
      case 'not_multiple_of':
        lines.push(`${where}: expected a multiple of ${String(issue.divisor)}, ${got}`);
        break;
      case 'invalid_union': {
        const branchTypes = issue.errors.map((branch) =>
          branch.length === 1 && branch[0]?.code === 'invalid_type' && branch[0].path.length === 0
            ? branch[0].expected
            : undefined,
        );
        lines.push(
          branchTypes.length > 0 && branchTypes.every((type) => type !== undefined)
            ? `${where}: expected ${[...new Set(branchTypes)].join(' or ')}, ${got}`
            : `${where}: expected a value matching one of the allowed shapes, ${got}`,
        );
        break;
      }
      default:
        lines.push(`${where}: ${issue.message}, ${got}`);
    }
  }
  return lines;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current = input;
  for (const segment of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return current;
}
