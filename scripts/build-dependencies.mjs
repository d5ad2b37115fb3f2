#!/usr/bin/env node
// Builds the workspace packages the app in the current directory depends on, quietly:
// the apps import the packages' dist/, which a fresh clone does not have yet. turbo's
// cache makes this a no-op when nothing changed; its output is shown only on failure.
// Used by each app's `start` script: `node ../../scripts/build-dependencies.mjs && tsx …`.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const { name } = JSON.parse(readFileSync(join(process.cwd(), 'package.json'), 'utf8'));
const turbo = join(root, 'node_modules', '.bin', 'turbo');
if (!existsSync(turbo)) {
  console.error('Run `pnpm install` at the repository root first.');
  process.exit(1);
}

const child = spawn(
  turbo,
  ['run', 'build', `--filter=${name}^...`, '--output-logs=errors-only', '--log-order=grouped'],
  {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1', TURBO_NO_UPDATE_NOTIFIER: '1' },
  },
);
// Say something when it is a real build (a fresh clone), not a cache hit.
const notice = setTimeout(() => {
  process.stderr.write(`Building the MTPX packages ${name} uses (turbo caches this)…\n`);
}, 1500);
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
