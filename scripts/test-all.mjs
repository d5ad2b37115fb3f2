#!/usr/bin/env node
// `pnpm test`: every package's and app's tests (turbo, cached) on the Node running it, then
// the one-line total of scripts/test-summary.mjs — `N passed, N failed` — as the last line.
// Exits non-zero when turbo failed or any test did. Extra arguments go to turbo
// (`pnpm test --filter=@mtpx/mcp`). Another Node: `pnpm test:node 22` (scripts/on-node.mjs).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

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
// turbo restores a cached package's report with its outputs, so the total matches this run.
// `--continue`: a failing package never stops (and so hides) another package's tests.
const turbo = spawnSync(
  join(root, 'node_modules', '.bin', 'turbo'),
  ['run', 'test', '--continue', ...concurrency, ...args],
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
