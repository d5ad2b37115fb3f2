#!/usr/bin/env node
import { runCli } from './cli';
import { serverFromModuleExports } from './module-server';

const running = await runCli(
  process.argv.slice(2),
  { stderr: (line) => console.error(line) },
  serverFromModuleExports,
).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
  return undefined;
});
if (running !== undefined) {
  const stop = () => void running.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
