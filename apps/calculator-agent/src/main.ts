// calculator-agent: the seed's scenario as a live timeline. Run: pnpm demo
import { ProviderError } from '@mtpx/providers';
import { runApp } from './app';
import { CliError } from './cli-error';
import { HELP, parseCliOptions } from './cli-options';

async function main(): Promise<number> {
  const options = parseCliOptions(process.argv.slice(2));
  if (options.help) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  return runApp(options, { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr });
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof CliError) {
      process.stderr.write(`calculator-agent: ${error.message}\n`);
      process.exitCode = error.exitCode;
    } else if (ProviderError.isInstance(error)) {
      // The model call failed (after the SDK's own retries): one line, no stack.
      process.stderr.write(`calculator-agent: the model call failed: ${error.message}\n`);
      process.exitCode = 1;
    } else {
      process.stderr.write(
        `calculator-agent: unexpected failure\n${String((error as Error)?.stack ?? error)}\n`,
      );
      process.exitCode = 1;
    }
  },
);
