#!/usr/bin/env node
// `node scripts/needs-node.mjs COMMAND`: exits 1 with a message saying what to do when the
// Node.js running it is outside the workspace root's `engines.node` (what the build and the
// release tools need: tsup 9, changesets 3). Without it, `pnpm changeset` on Node 20 dies
// inside changesets with "enableCompileCache is not a function".
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** `major.minor.patch` as numbers; a missing minor or patch is 0 (`>=20` is `>=20.0.0`). */
function parse(version) {
  const match = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(version);
  if (!match) throw new Error(`not a version: ${version}`);
  return match.slice(1, 4).map((part) => Number(part ?? 0));
}

function compare(a, b) {
  for (let index = 0; index < 3; index += 1) {
    if (a[index] !== b[index]) return a[index] - b[index];
  }
  return 0;
}

/**
 * Whether `version` satisfies `range`: alternatives joined by `||`, each `^x.y.z` (same
 * major, at least x.y.z) or `>=x.y.z` (or `>=x`, `>=x.y`), the forms the workspace's
 * `engines.node` fields use.
 *
 * @param {string} version e.g. `20.20.2` or `v26.12.1`
 * @param {string} range e.g. `^22.18.0 || ^24.11.0 || >=26.0.0`
 */
export function satisfies(version, range) {
  const current = parse(version);
  return range.split('||').some((alternative) => {
    const wanted = alternative.trim();
    if (wanted.startsWith('>=')) return compare(current, parse(wanted.slice(2))) >= 0;
    if (wanted.startsWith('^')) {
      const floor = parse(wanted.slice(1));
      return current[0] === floor[0] && compare(current, floor) >= 0;
    }
    throw new Error(`engines.node: unsupported range ${JSON.stringify(wanted)}`);
  });
}

if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) {
  const command = process.argv.slice(2).join(' ') || 'this command';
  const root = join(import.meta.dirname, '..');
  const range = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines.node;
  if (!satisfies(process.version, range)) {
    console.error(
      `${command} needs Node.js ${range} (the workspace's engines: the build and release tools need it); this is Node ${process.versions.node}.\n` +
        `Switch to Node 22.18+, 24.11+ or 26, or run it on one installed into .tools/: pnpm test:node 26 pnpm ${command.replace(/^pnpm /, '')}`,
    );
    process.exit(1);
  }
}
