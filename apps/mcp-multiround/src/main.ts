// mcp-multiround: an MTPX agent books a table through a multi-round MCP tool.
// Run: pnpm --filter mcp-multiround start -- --name Ada --date 2026-12-24 --yes
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
  return runApp(options, { stdin: process.stdin, stdout: process.stdout });
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof CliError) {
      process.stderr.write(`mcp-multiround: ${error.message}\n`);
      process.exitCode = error.exitCode;
    } else if (ProviderError.isInstance(error)) {
      process.stderr.write(`mcp-multiround: the model call failed: ${error.message}\n`);
      process.exitCode = 1;
    } else {
      process.stderr.write(
        `mcp-multiround: unexpected failure\n${String((error as Error)?.stack ?? error)}\n`,
      );
      process.exitCode = 1;
    }
  },
);
