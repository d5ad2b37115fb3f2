// Which workspace packages `pnpm test` tests on a Node.js runtime: those whose declared
// floor that runtime meets. A package's floor is its own `engines.node` (every published
// package: `>=20`), or the workspace root's when it declares none (the private apps and
// their kit, started from the workspace: built with tsup 9, so on Node 22.18+, 24.11+ or 26).
// scripts/test-all.mjs leaves the others out and leaves a marker in their test-results/;
// scripts/test-summary.mjs reads it, so a package left out is named, never a failure.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { satisfies } from './needs-node.mjs';

const root = join(import.meta.dirname, '..');

/** The folders pnpm-workspace.yaml lists (`packages/*`, `apps/*`). */
export const WORKSPACE_GROUPS = ['packages', 'apps'];

/**
 * Every workspace package with a `test` script, in folder order: `group/name`, its folder,
 * its manifest, and the `engines.node` range it is tested against.
 */
export function testedPackages() {
  const rootRange = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines.node;
  const packages = [];
  for (const group of WORKSPACE_GROUPS) {
    const groupDirectory = join(root, group);
    if (!existsSync(groupDirectory)) continue;
    for (const name of readdirSync(groupDirectory).sort()) {
      const directory = join(groupDirectory, name);
      const manifestPath = join(directory, 'package.json');
      if (!existsSync(manifestPath)) continue;
      const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
      if (!manifest.scripts?.test) continue;
      const ownRange = manifest.engines?.node;
      packages.push({
        path: `${group}/${name}`,
        directory,
        manifest,
        range: ownRange ?? rootRange,
        rangeFrom: ownRange === undefined ? 'the workspace root' : 'its package.json',
      });
    }
  }
  return packages;
}

/** The marker test-all.mjs leaves in a package left out on Node `major`. */
export function outsideEnginesMarker(directory, major) {
  return join(directory, 'test-results', `vitest-node${major}.outside-engines.txt`);
}

/** Whether Node `version` (e.g. `20.20.2`) is within `range`, the floor a package declares. */
export function testsOn(version, range) {
  return satisfies(version, range);
}
