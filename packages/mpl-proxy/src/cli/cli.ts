#!/usr/bin/env node
// `mpl`: reads the command, then loads only what that command needs (`--version` and
// `--help` load no engine, store or server).
import { isClusterWorker, leaveCluster } from '../cluster/cluster-worker';
import { VERSION } from '../version';
import { out, printHelp } from './cli-help';
import { UsageError } from './usage-error';

async function main(argv: string[]): Promise<number> {
  // `pnpm mpl -- --version` passes the `--` on.
  const [command, ...rest] = argv[0] === '--' ? argv.slice(1) : argv;
  switch (command) {
    case 'serve':
      return (await import('./serve-command')).serve(rest);
    case 'schemas':
      return (await import('./data-commands')).schemas(rest);
    case 'validate':
      return (await import('./data-commands')).validate(rest);
    case 'hash':
      return (await import('./data-commands')).hash(rest);
    case 'provenance':
      return (await import('./data-commands')).provenance(rest);
    case '--version':
    case '-v':
      out(VERSION);
      return 0;
    case undefined:
    case '--help':
    case '-h':
    case 'help':
      return printHelp('mpl');
    default:
      throw new UsageError(`Unknown command: ${command}`);
  }
}

main(process.argv.slice(2))
  .then(
    (code) => {
      process.exitCode = code;
    },
    async (error: unknown) => {
      if (error instanceof UsageError) {
        process.stderr.write(`mpl: ${error.message}\nRun mpl --help for usage.\n`);
        process.exitCode = 2;
      } else if ((await import('@mtpx/mpl')).MplError.isInstance(error)) {
        process.stderr.write(`mpl: [${error.code}] ${error.message}\n`);
        process.exitCode = 1;
      } else {
        process.stderr.write(
          `mpl: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
        );
        process.exitCode = 1;
      }
    },
  )
  // A worker of `mpl serve --workers N` exits once done: its IPC channel would hold it.
  .finally(() => {
    if (isClusterWorker()) leaveCluster();
  });
