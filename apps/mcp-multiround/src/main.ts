// mcp-multiround: an MTPX agent books a table through a multi-round MCP tool.
// Run: pnpm -C apps/mcp-multiround start --name Ada --date 2026-12-24 --yes
import { runMain } from '@mtpx/example-kit';
import { runApp } from './app';
import { HELP, parseCliOptions } from './cli-options';

async function main(): Promise<number> {
  const options = parseCliOptions(process.argv.slice(2));
  if (options.help) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  return runApp(options, { stdin: process.stdin, stdout: process.stdout });
}

runMain('mcp-multiround', main);
