// calculator-agent: the seed's scenario as a live timeline. Run: pnpm demo
import { runMain } from '@mtpx/example-kit';
import { runApp } from './app';
import { HELP, parseCliOptions } from './cli-options';

async function main(): Promise<number> {
  const options = parseCliOptions(process.argv.slice(2));
  if (options.help) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  return runApp(options, { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr });
}

runMain('calculator-agent', main);
