#!/usr/bin/env node
// Builds the workspace packages a package or app depends on, quietly: the apps and the
// packages' examples import the packages' dist/, which a fresh clone does not have yet.
// turbo's cache makes this a no-op when nothing changed; its output is shown only on failure.
//
// Usage:
//   node ../../scripts/build-dependencies.mjs          what the package in the current directory uses
//   node ../../scripts/build-dependencies.mjs --self   the same, and that package itself (its examples)
//   node scripts/build-dependencies.mjs --package @mtpx/mpl-proxy --self   a package named from the root
// Used by each app's `start` script, each package's `example:*` scripts and the root's
// `demo` and `mpl` scripts.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const root = join(import.meta.dirname, '..');
const { values } = parseArgs({
  options: { self: { type: 'boolean' }, package: { type: 'string' } },
  strict: true,
});
const name =
  values.package ?? JSON.parse(readFileSync(join(process.cwd(), 'package.json'), 'utf8')).name;
const turbo = join(root, 'node_modules', '.bin', 'turbo');
if (!existsSync(turbo)) {
  console.error('Run `pnpm install` at the repository root first.');
  process.exit(1);
}

const filter = values.self ? `--filter=${name}...` : `--filter=${name}^...`;
const child = spawn(
  turbo,
  ['run', 'build', filter, '--output-logs=errors-only', '--log-order=grouped'],
  {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1', TURBO_NO_UPDATE_NOTIFIER: '1' },
  },
);
// Say something when it is a real build (a fresh clone), not a cache hit.
const notice = setTimeout(() => {
  process.stderr.write(`Building the MTPX packages ${name} uses (turbo caches this)…\n`);
}, 4000);
let output = '';
child.stdout.on('data', (chunk) => {
  output += chunk;
});
child.stderr.on('data', (chunk) => {
  output += chunk;
});
child.on('close', (code) => {
  clearTimeout(notice);
  if (code === 0) return;
  process.stderr.write(output);
  console.error(`Building the packages ${name} uses failed (turbo exited with ${code}).`);
  process.exit(code ?? 1);
});
