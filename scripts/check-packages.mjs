#!/usr/bin/env node
// Packaging check: every published package must work outside the workspace.
// For each package: pack it, check the tarball holds only dist/, README, CHANGELOG and
// package.json, lint it with publint, install it into a fresh project outside the
// workspace with only its own tarball, the tarballs of the @mtpx packages it depends on
// and the peers it declares, then import every public entry point there with plain Node.
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const only = process.argv.slice(2);
const workspace = mkdtempSync(join(tmpdir(), 'mtpx-check-packages-'));
const tarballDirectory = join(workspace, 'tarballs');
mkdirSync(tarballDirectory);

const run = (command, args, options = {}) =>
  execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...options });

/** name → { directory, manifest } for every package under packages/. */
const packages = new Map();
for (const name of readdirSync(join(root, 'packages')).sort()) {
  const directory = join(root, 'packages', name);
  const manifestPath = join(directory, 'package.json');
  if (!existsSync(manifestPath)) continue;
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  if (!manifest.private) packages.set(manifest.name, { directory, manifest });
}

const tarballs = new Map();
for (const [name, { directory }] of packages) {
  const before = new Set(readdirSync(tarballDirectory));
  run('pnpm', ['pack', '--pack-destination', tarballDirectory], { cwd: directory });
  const created = readdirSync(tarballDirectory).find((file) => !before.has(file));
  if (!created) throw new Error(`pnpm pack made no tarball for ${name}`);
  tarballs.set(name, join(tarballDirectory, created));
}

/** The @mtpx packages `name` needs, itself included, depth first. */
function internalClosure(name, seen = new Set()) {
  if (seen.has(name)) return seen;
  seen.add(name);
  const { manifest } = packages.get(name);
  for (const dependency of Object.keys({
    ...manifest.dependencies,
    ...manifest.peerDependencies,
  })) {
    if (packages.has(dependency)) internalClosure(dependency, seen);
  }
  return seen;
}

/** Files a package ships beyond dist/, README and CHANGELOG, and reads at run time. */
const extraFiles = {
  // The built-in STypes, in the reference registry layout, resolved next to dist/.
  '@mtpx/mpl': /^package\/stypes\/.+\.json$/,
};

const failures = [];
for (const [name, { manifest }] of packages) {
  if (only.length > 0 && !only.includes(name)) continue;
  const problems = [];
  const tarball = tarballs.get(name);

  const allowed = /^package\/(package\.json|README\.md|CHANGELOG\.md|LICENSE|dist\/.+)$/;
  const extra = extraFiles[name];
  const stray = run('tar', ['-tzf', tarball])
    .split('\n')
    .filter((entry) => entry !== '' && !allowed.test(entry) && !extra?.test(entry));
  if (stray.length > 0)
    problems.push(
      `tarball holds more than dist, README, CHANGELOG, LICENSE and package.json: ${stray.join(', ')}`,
    );

  try {
    const lint = run(join(root, 'node_modules/.bin/publint'), ['run', tarball, '--strict'], {
      cwd: workspace,
    });
    if (/error|warning/i.test(lint) && !/All good/i.test(lint)) problems.push(`publint:\n${lint}`);
  } catch (error) {
    problems.push(`publint failed:\n${error.stdout ?? ''}${error.stderr ?? error.message}`);
  }

  const project = join(workspace, `consumer-${name.replace(/[@/]/g, '_')}`);
  mkdirSync(project);
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
  );
  const internal = [...internalClosure(name)].map((dependency) => tarballs.get(dependency));
  const peers = Object.entries(manifest.peerDependencies ?? {})
    .filter(([peer]) => !packages.has(peer))
    .map(([peer, range]) => `${peer}@${range}`);
  try {
    run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...internal, ...peers], {
      cwd: project,
    });
  } catch (error) {
    problems.push(`npm install failed:\n${error.stderr ?? error.message}`);
  }

  const entries = Object.keys(manifest.exports ?? { '.': null }).filter(
    (entry) => entry !== './package.json',
  );
  for (const entry of entries) {
    const specifier = entry === '.' ? name : `${name}/${entry.slice(2)}`;
    const script = `const m = await import(${JSON.stringify(specifier)}); if (Object.keys(m).length === 0) throw new Error('no exports'); console.log(Object.keys(m).length);`;
    try {
      const count = run('node', ['--input-type=module', '-e', script], { cwd: project }).trim();
      console.log(`  ${specifier}: ${count} exports`);
    } catch (error) {
      problems.push(`import ${specifier} failed:\n${error.stderr ?? error.message}`);
    }
  }

  if (problems.length === 0) console.log(`ok  ${name}`);
  else {
    failures.push(name);
    console.log(`FAIL ${name}\n  ${problems.join('\n  ')}`);
  }
}

rmSync(workspace, { recursive: true, force: true });
if (failures.length > 0) {
  console.log(`Packaging check failed for: ${failures.join(', ')}`);
  process.exit(1);
}
console.log('Packaging check passed.');
