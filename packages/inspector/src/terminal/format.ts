import { findRefs, type JsonValue } from '@mtpx/protocol';
import { isReference } from '@mtpx/protocol/internal';
import { shorten } from './terminal-output';

function isObject(value: unknown): value is Record<string, JsonValue> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * One value for a timeline line: numbers as they are, strings quoted (first line,
 * shortened), `{"$ref": "call_1"}` as `$call_1` (with its `$path`), objects compact.
 *
 * @internal
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

/**
 * A call as a function application: `calculator.multiply(a: 4, b: $call_1)`.
 *
 * @internal
 */
export function formatCall(name: string, args: JsonValue | undefined): string {
  if (!isObject(args)) return `${name}(${formatValue(args)})`;
  const parts = Object.entries(args).map(([key, value]) => `${key}: ${formatValue(value)}`);
  return `${name}(${parts.join(', ')})`;
}

/** @deprecated Use `findRefs` from `@mtpx/protocol`; removed in the next minor. */
export function referencedIds(args: JsonValue | undefined): string[] {
  return findRefs(args);
}

/** Milliseconds for people: `840 ms`, `1.24 s` (the apps' one format, from the kit). */
export { formatMs } from './durations';
