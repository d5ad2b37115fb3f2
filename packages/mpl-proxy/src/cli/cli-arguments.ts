import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { type JsonValue, safeParseJson } from '@mtpx/protocol';
import { isPostgresUrl } from '../store/postgres-provenance';
import { unknownOptionMessage } from './option-suggestion';
import { UsageError } from './usage-error';

// How the `mpl` commands read their arguments and input files.

/** A JSON file's value (`-`: standard input); a `UsageError` when unreadable or not JSON. */
export async function readJsonFile(file: string): Promise<JsonValue> {
  let text: string;
  try {
    text = file === '-' ? await readStdin() : await readFile(file, 'utf8');
  } catch (cause) {
    throw new UsageError(
      `Cannot read ${file}: ${cause instanceof Error ? cause.message : String(cause)}`,
    );
  }
  const parsed = safeParseJson(text);
  if (!parsed.ok) throw new UsageError(`${file} is not valid JSON: ${parsed.error.message}`);
  return parsed.value;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export type OptionsConfig = NonNullable<NonNullable<Parameters<typeof parseArgs>[0]>['options']>;
/** What `parse` read: option values and positional arguments. */
export type ParsedArguments = {
  values: Record<string, string | boolean | Array<string | boolean> | undefined>;
  positionals: string[];
};

/** Parses `argv` strictly; an unknown option is a `UsageError` naming the closest known one. */
export function parse(argv: string[], options: OptionsConfig): ParsedArguments {
  try {
    return parseArgs({
      args: argv,
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    }) as ParsedArguments;
  } catch (error) {
    const unknown =
      (error as { code?: unknown }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION'
        ? /'([^']+)'/.exec((error as Error).message)?.[1]
        : undefined;
    if (unknown !== undefined)
      throw new UsageError(unknownOptionMessage(unknown, [...Object.keys(options), 'help']));
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

/** `value` when it is one of `allowed` (or absent), else a `UsageError`. */
export function oneOf<T extends string>(
  value: unknown,
  allowed: readonly T[],
  option: string,
): T | undefined {
  if (value === undefined) return undefined;
  if (!allowed.includes(value as T))
    throw new UsageError(`${option} must be ${allowed.join(' or ')}, not ${String(value)}`);
  return value as T;
}

/** `value` as a whole number ≥ 0 (or absent), else a `UsageError`. */
export function integer(value: unknown, option: string): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0)
    throw new UsageError(`${option} must be a whole number, not ${String(value)}`);
  return number;
}

/** A repeated option's values. */
export function strings(value: unknown): string[] {
  return Array.isArray(value) ? (value as string[]) : typeof value === 'string' ? [value] : [];
}

/** A comma-separated option's items, trimmed, empty ones dropped. */
export function commaList(value: unknown): string[] | undefined {
  if (typeof value !== 'string') return undefined;
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}

/** The `--provenance` URL, checked: only PostgreSQL goes there (SQLite is `--data DIR`). */
export function postgresLocation(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !isPostgresUrl(value))
    throw new UsageError(
      `--provenance takes a postgres:// URL, not ${String(value)} (for SQLite use --data DIR)`,
    );
  return value;
}
