// planner-executor: the MPL multi-agent tutorial end to end. Run: pnpm --filter planner-executor start
import { ProviderError } from '@mtpx/providers';
import { runApp } from './app';
import { CliError } from './cli-error';
import { HELP, parseCliOptions } from './cli-options';
import { shouldColor, Terminal } from './terminal';

async function main(): Promise<number> {
  const options = parseCliOptions(process.argv.slice(2));
  if (options.help) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  const terminal = new Terminal(process.stdout, shouldColor(process.stdout, options.color));
  return runApp(options, terminal);
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof CliError) {
      process.stderr.write(`planner-executor: ${error.message}\n`);
      process.exitCode = error.exitCode;
    } else if (ProviderError.isInstance(error)) {
      process.stderr.write(`planner-executor: the planner model failed: ${error.message}\n`);
      process.exitCode = 1;
    } else {
      process.stderr.write(
        `planner-executor: unexpected failure\n${String((error as Error)?.stack ?? error)}\n`,
      );
      process.exitCode = 1;
    }
  },
);
