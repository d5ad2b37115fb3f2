import type { JsonValue } from '@mtpx/protocol';
import { shorten } from './terminal-output';

function isObject(value: unknown): value is Record<string, JsonValue> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isReference(value: unknown): value is { $ref: string; $path?: string } {
  if (!isObject(value) || typeof value.$ref !== 'string') return false;
  const keys = Object.keys(value);
  return keys.length === 1 || (keys.length === 2 && typeof value.$path === 'string');
}

/**
 * One value for a timeline line: numbers as they are, strings quoted (first line,
 * shortened), `{"$ref": "call_1"}` as `$call_1` (with its `$path`), objects compact.
 */
export function formatValue(value: JsonValue | undefined, length = 32): string {
  if (value === undefined) return '∅';
  if (isReference(value)) return `$${value.$ref}${value.$path ?? ''}`;
  if (typeof value === 'string') {
    const [firstLine = ''] = value.split('\n');
    return JSON.stringify(shorten(firstLine === value ? value : `${firstLine}…`, length));
  }
  if (isObject(value)) {
    const entries = Object.entries(value).map(([key, item]) => `${key}: ${formatValue(item, 20)}`);
    return shorten(`{${entries.join(', ')}}`, length + 16);
  }
  if (Array.isArray(value))
    return shorten(`[${value.map((item) => formatValue(item, 12)).join(', ')}]`, length);
  return String(value);
}

/** A call as a function application: `calculator.multiply(a: 4, b: $call_1)`. */
export function formatCall(name: string, args: JsonValue | undefined): string {
  if (!isObject(args)) return `${name}(${formatValue(args)})`;
  const parts = Object.entries(args).map(([key, value]) => `${key}: ${formatValue(value)}`);
  return `${name}(${parts.join(', ')})`;
}

/** The ids a call's arguments reference. */
export function referencedIds(args: JsonValue | undefined): string[] {
  const found: string[] = [];
  const visit = (value: JsonValue | undefined) => {
    if (isReference(value)) found.push(value.$ref);
    else if (Array.isArray(value)) value.forEach(visit);
    else if (isObject(value)) Object.values(value).forEach(visit);
  };
  visit(args);
  return found;
}

/** Milliseconds for people: `840 ms`, `1.24 s` (the apps' one format, from the kit). */
export { formatMs } from './durations';
