import { ProviderError } from '@mtpx/providers';
import { CliError } from './cli-error';

/** How {@link runMain} words a failed model call. */
export interface RunMainOptions {
  /** Put before a model call's error: `the model call failed` (default), `the planner model failed`. */
  modelFailure?: string;
}

/**
 * Runs an app's `main` and sets the exit code: its result, or — when it throws — one
 * line on stderr, `<app>: <message>`, for a {@link CliError} (its `exitCode`) and for a
 * model call that failed after the SDK's own retries (1); anything else is unexpected and
 * printed with its stack (1).
 */
export function runMain(
  app: string,
  main: () => Promise<number>,
  options: RunMainOptions = {},
): Promise<void> {
  return main().then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      if (error instanceof CliError) {
        process.stderr.write(`${app}: ${error.message}\n`);
        process.exitCode = error.exitCode;
      } else if (ProviderError.isInstance(error)) {
        const failure = options.modelFailure ?? 'the model call failed';
        process.stderr.write(`${app}: ${failure}: ${error.message}\n`);
        process.exitCode = 1;
      } else {
        process.stderr.write(
          `${app}: unexpected failure\n${String((error as Error)?.stack ?? error)}\n`,
        );
        process.exitCode = 1;
      }
    },
  );
}
