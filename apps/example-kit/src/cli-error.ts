/**
 * A problem the person running the app must fix (a flag, a key, an unreachable proxy).
 * `main` prints its message as one line, without a stack trace, and exits with `exitCode`.
 */
export class CliError extends Error {
  readonly exitCode: number;

  constructor(message: string, options: { exitCode?: number; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'CliError';
    this.exitCode = options.exitCode ?? 2;
  }
}
