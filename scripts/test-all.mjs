#!/usr/bin/env node
// `pnpm test`: the tests of every package and app whose engines admit the Node running it
// (turbo, cached; scripts/tested-packages.mjs), then
// the one-line total of scripts/test-summary.mjs — `N passed, N failed` — as the last line.
// Exits non-zero when turbo failed or any test did. Extra arguments go to turbo
// (`pnpm test --filter=@mtpx/mcp`). Another Node: `pnpm test:node 22` (scripts/on-node.mjs).
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { outsideEnginesMarker, testedPackages, testsOn } from './tested-packages.mjs';

const root = join(import.meta.dirname, '..');
const major = process.versions.node.split('.')[0];
const args = process.argv.slice(2);
// One package's tests per core unless told otherwise (turbo's default is 10 at once): each
// package's vitest and the servers and processes its tests start keep a core busy, and more
// only queue. On 2 cores, Node 26's whole suite took 525 CPU-s two at a time against 595
// ten at a time, in the same wall time (358 s, 350 s).
const concurrency = args.some((arg) => arg.startsWith('--concurrency'))
  ? []
  : ['--concurrency=100%'];
// A package whose declared floor this Node does not meet is left out, with a marker the
// summary reads (scripts/tested-packages.mjs): the private apps declare the workspace's
// Node 22.18+, so on Node 20 only the published packages (`>=20`) are tested.
const outside = [];
for (const pkg of testedPackages()) {
  const marker = outsideEnginesMarker(pkg.directory, major);
  if (testsOn(process.versions.node, pkg.range)) {
    rmSync(marker, { force: true });
    continue;
  }
  outside.push(pkg);
  // A report from an earlier run on this Node is not this run's: the marker takes its place.
  rmSync(join(pkg.directory, 'test-results', `vitest-node${major}.json`), { force: true });
  mkdirSync(join(pkg.directory, 'test-results'), { recursive: true });
  writeFileSync(
    marker,
    `Node ${process.versions.node} is outside ${pkg.range} (the engines of ${pkg.rangeFrom})\n`,
  );
}
// One line per range: `Not tested on Node 20.20.2, outside ^22.18.0 || …: calculator-agent, …`.
const byRange = new Map();
for (const pkg of outside) byRange.set(pkg.range, [...(byRange.get(pkg.range) ?? []), pkg]);
for (const [range, left] of byRange) {
  console.log(
    `Not tested on Node ${process.versions.node}, outside ${range}: ${left.map((pkg) => pkg.manifest.name).join(', ')}`,
  );
}
const exclusions = outside.map((pkg) => `--filter=!${pkg.manifest.name}`);
// turbo restores a cached package's report with its outputs, so the total matches this run.
// `--continue`: a failing package never stops (and so hides) another package's tests.
const turbo = spawnSync(
  join(root, 'node_modules', '.bin', 'turbo'),
  ['run', 'test', '--continue', ...concurrency, ...exclusions, ...args],
  {
    cwd: root,
    stdio: 'inherit',
    // turbo.json keys the test task's cache on it: a run on one Node never replays another's.
    env: { ...process.env, MTPX_TEST_NODE: process.versions.node },
  },
);
const failedRun = turbo.status === 0 ? 0 : 1;
const summary = spawnSync(
  process.execPath,
  [
    join(import.meta.dirname, 'test-summary.mjs'),
    '--runtimes',
    major,
    '--extra-failures',
    String(failedRun),
  ],
  { cwd: root, stdio: 'inherit' },
);
process.exitCode = failedRun !== 0 || summary.status !== 0 ? 1 : 0;
