// planner-executor: the MPL multi-agent tutorial end to end. Run: pnpm -C apps/planner-executor start
import { runMain, shouldColor, Terminal } from '@mtpx/example-kit';
import { runApp } from './app';
import { HELP, parseCliOptions } from './cli-options';

async function main(): Promise<number> {
  const options = parseCliOptions(process.argv.slice(2));
  if (options.help) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  const terminal = new Terminal(process.stdout, shouldColor(process.stdout, options.color));
  return runApp(options, terminal);
}

runMain('planner-executor', main, { modelFailure: 'the planner model failed' });
