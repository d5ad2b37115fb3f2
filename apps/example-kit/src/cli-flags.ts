import { type ParseArgsConfig, parseArgs } from 'node:util';
import { CliError } from './cli-error';
import { unknownFlagMessage } from './flag-suggestion';

/** The flags every app takes: `--color`, `--no-color`, `-h`/`--help`. */
export const COMMON_FLAGS = {
  color: { type: 'boolean' },
  'no-color': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** A command line's flags, as `parseArgs` takes them (without `args`; always strict). */
export type FlagsConfig = Omit<ParseArgsConfig, 'args' | 'strict'>;

/**
 * Parses a command line strictly with `node:util`'s `parseArgs` (a leading `--`, as pnpm
 * may pass it, is ignored). An unknown flag or a missing value is a {@link CliError}
 * pointing at `--help`; an unknown flag close to a known one names it (`--providr`: did
 * you mean `--provider`?).
 */
export function parseFlags<const T extends FlagsConfig>(
  argv: readonly string[],
  config: T,
): ReturnType<typeof parseArgs<T & { args: string[]; strict: true }>> {
  const args = argv[0] === '--' ? argv.slice(1) : [...argv];
  try {
    return parseArgs({ ...config, args, strict: true });
  } catch (error) {
    const unknown = unknownOption(error);
    if (unknown !== undefined)
      throw new CliError(unknownFlagMessage(unknown, Object.keys(config.options ?? {})));
    throw new CliError(`${(error as Error).message} (see --help)`);
  }
}

/** The flag `parseArgs` did not know, from its `ERR_PARSE_ARGS_UNKNOWN_OPTION` error. */
function unknownOption(error: unknown): string | undefined {
  if ((error as { code?: unknown })?.code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return undefined;
  return /'([^']+)'/.exec((error as Error).message)?.[1];
}

/** `--color` / `--no-color` (the latter wins); `undefined` when neither was passed. */
export function colorFlag(values: { color?: boolean; 'no-color'?: boolean }): boolean | undefined {
  if (values['no-color']) return false;
  if (values.color) return true;
  return undefined;
}

/** A flag's value that must be an http(s) URL, as written; a {@link CliError} otherwise. */
export function httpUrlFlag(flag: string, value: string): string {
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') return value;
  } catch {
    // reported below
  }
  throw new CliError(`${flag} must be an http(s) URL, not "${value}".`);
}
