#!/usr/bin/env node
// Packaging check: every published package must work outside the workspace. For each
// package under packages/: pack it; check the tarball holds only what it should and names
// no workspace-only dependency; lint it with publint (any error or warning fails); install
// it into a fresh project outside the workspace with only its own tarball, the tarballs of
// the @mtpx packages it depends on and the peers it declares; check every internal package
// there came from its tarball; import every public entry point with plain Node; run its
// bins with --help and --version (which must print the package's version); and check
// that its dist imports only what it declares, with types.
//
// A canary package with known faults goes through the same checks first: if any detector
// misses its fault, the check itself is broken and fails.
//
// Usage: node scripts/check-packages.mjs [@mtpx/name …]
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { localPrebuilds } from './native-prebuilds.mjs';
import {
  failureOutput,
  importedPackages,
  lintTarball,
  localSpecifiers,
  missingCode,
  missingTypes,
  registryCopies,
  run,
  strayFiles,
  undeclaredImports,
} from './package-checks.mjs';

const root = join(import.meta.dirname, '..');
const only = process.argv.slice(2);

/** name → { directory, manifest } of every published package under packages/. */
async function publishedPackages() {
  const packages = new Map();
  for (const name of (await readdir(join(root, 'packages'))).sort()) {
    const directory = join(root, 'packages', name);
    let manifest;
    try {
      manifest = JSON.parse(await readFile(join(directory, 'package.json'), 'utf8'));
    } catch {
      continue;
    }
    if (!manifest.private) packages.set(manifest.name, { directory, manifest });
  }
  return packages;
}

/**
 * Packs one package into a folder of its own (so packs can run side by side). Without its
 * prepack script: `pnpm check:packages` has just built every package with one turbo run,
 * and a prepack per package would run turbo again, once each (and two at once would
 * restore the same dist/ files under each other). That `pnpm pack` alone builds what it
 * ships is checked by .ci/newcomer.sh on a fresh clone; a tarball without its code fails
 * here (missingCode).
 */
async function pack(directory, destination) {
  await mkdir(destination, { recursive: true });
  await run('pnpm', ['pack', '--ignore-scripts', '--pack-destination', destination], {
    cwd: directory,
  });
  const created = (await readdir(destination)).find((file) => file.endsWith('.tgz'));
  if (!created) throw new Error(`pnpm pack made no tarball in ${directory}`);
  return join(destination, created);
}

/** The @mtpx packages `name` needs (dependencies and peers), itself included. */
function internalClosure(packages, name, seen = new Set()) {
  if (seen.has(name)) return seen;
  seen.add(name);
  const { manifest } = packages.get(name);
  for (const dependency of Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies }))
    if (packages.has(dependency)) internalClosure(packages, dependency, seen);
  return seen;
}

function binNames(manifest) {
  if (typeof manifest.bin === 'string') return [manifest.name.split('/').pop()];
  return Object.keys(manifest.bin ?? {});
}

/** Every check for one packed package; resolves with its report lines and problems. */
async function checkPackage({ name, tarball, packages, tarballs, workspace, env = {} }) {
  const problems = [];
  const lines = [];
  const started = Date.now();
  const { manifest } = packages.get(name);

  problems.push(...(await strayFiles(name, tarball)));
  const packed = JSON.parse((await run('tar', ['-xzOf', tarball, 'package/package.json'])).stdout);
  problems.push(...localSpecifiers(packed));
  problems.push(...(await missingCode(tarball, packed)));
  try {
    const lint = await lintTarball(tarball);
    problems.push(...lint.problems);
    for (const note of lint.notes) lines.push(`  note: ${note}`);
  } catch (error) {
    problems.push(`publint could not lint the tarball: ${error.message}`);
  }

  const project = join(workspace, `consumer-${name.replace(/[@/]/g, '_')}`);
  await mkdir(project);
  await writeFile(
    join(project, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
  );
  const internal = internalClosure(packages, name);
  const peers = Object.entries(manifest.peerDependencies ?? {})
    .filter(([peer]) => !packages.has(peer))
    .map(([peer, range]) => `${peer}@${range}`);
  try {
    await run(
      'npm',
      [
        'install',
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
        // Registry metadata from npm's cache when it has it: the peers are the same for
        // every consumer, so one revalidation each would be 11 round trips for nothing.
        '--prefer-offline',
        ...[...internal].map((dependency) => tarballs.get(dependency)),
        ...peers,
      ],
      { cwd: project, env: { ...process.env, ...env } },
    );
  } catch (error) {
    problems.push(`npm install failed:\n${failureOutput(error)}`);
    return { lines, problems };
  }
  problems.push(...(await registryCopies(project, new Set(packages.keys()))));
  lines.push(`  installed in ${seconds(started)} s`);

  const entries = Object.keys(packed.exports ?? { '.': null }).filter(
    (entry) => entry !== './package.json',
  );
  for (const entry of entries) {
    const specifier = entry === '.' ? name : `${name}/${entry.slice(2)}`;
    const script = `const m = await import(${JSON.stringify(specifier)}); if (Object.keys(m).length === 0) throw new Error('no exports'); console.log(Object.keys(m).length);`;
    try {
      const { stdout } = await run('node', ['--input-type=module', '-e', script], { cwd: project });
      lines.push(`  ${specifier}: ${stdout.trim()} exports`);
    } catch (error) {
      problems.push(`import ${specifier} failed:\n${failureOutput(error)}`);
    }
  }
  for (const bin of binNames(packed)) {
    try {
      await run(join(project, 'node_modules', '.bin', bin), ['--help'], { cwd: project });
      lines.push(`  bin ${bin}: --help ok`);
    } catch (error) {
      problems.push(`bin ${bin} --help failed:\n${failureOutput(error)}`);
    }
    try {
      const { stdout, stderr } = await run(
        join(project, 'node_modules', '.bin', bin),
        ['--version'],
        {
          cwd: project,
        },
      );
      const printed = `${stdout}${stderr}`.trim();
      if (printed === packed.version) lines.push(`  bin ${bin}: --version ${printed}`);
      else problems.push(`bin ${bin} --version printed "${printed}", not ${packed.version}`);
    } catch (error) {
      problems.push(`bin ${bin} --version failed:\n${failureOutput(error)}`);
    }
  }

  const installed = join(project, 'node_modules', name);
  const imported = await importedPackages(installed);
  problems.push(...undeclaredImports(packed, imported));
  problems.push(...(await missingTypes(project, packed, imported.declarations)));
  lines.push(`  checked in ${seconds(started)} s`);
  return { lines, problems };
}

/** A package with one fault per detector, to prove each detector still catches its fault. */
async function packCanary(workspace, destination) {
  const directory = join(workspace, 'canary');
  await mkdir(join(directory, 'dist'), { recursive: true });
  const manifest = {
    name: '@mtpx-canary/broken',
    version: '0.0.0',
    type: 'module',
    // publint: `types` must come first; strict mode makes that warning an error.
    // The `./cli` entry points at a file the tarball lacks (packed before it was built).
    exports: {
      '.': { import: './dist/index.js', types: './dist/index.d.ts' },
      './cli': './dist/cli.js',
    },
    files: ['dist'],
  };
  await writeFile(join(directory, 'package.json'), JSON.stringify(manifest));
  // Undeclared imports in code and declarations; the code import also fails at run time.
  await writeFile(
    join(directory, 'dist', 'index.js'),
    "import leftPad from 'left-pad-canary-undeclared';\nexport const pad = leftPad;\n",
  );
  await writeFile(
    join(directory, 'dist', 'index.d.ts'),
    "import type { ZodType } from 'zod';\nexport declare const pad: ZodType;\n",
  );
  const before = new Set(await readdir(destination));
  await run('npm', ['pack', '--silent', '--pack-destination', destination], { cwd: directory });
  const created = (await readdir(destination)).find((file) => !before.has(file));
  return { name: manifest.name, tarball: join(destination, created), manifest };
}

const CANARY_FAULTS = [
  ['publint', /^publint error EXPORTS_TYPES_SHOULD_BE_FIRST/],
  ['the import test', /^import @mtpx-canary\/broken failed/],
  ['the code check', /^tarball lacks files its package.json points at: package\/dist\/cli\.js/],
  ['the undeclared import scan (code)', /^dist code import "left-pad-canary-undeclared"/],
  ['the undeclared import scan (declarations)', /^dist declarations import "zod", which package/],
];

const seconds = (since) => ((Date.now() - since) / 1000).toFixed(1);

async function pool(tasks, size) {
  const results = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await tasks[index]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(size, tasks.length) }, worker));
  return results;
}

async function main() {
  const workspace = await mkdtemp(join(tmpdir(), 'mtpx-check-packages-'));
  const tarballDirectory = join(workspace, 'tarballs');
  await mkdir(tarballDirectory);
  try {
    const packages = await publishedPackages();
    const packStarted = Date.now();
    // Two packs at a time: each is mostly waiting on pnpm's start-up and on gzip.
    const entries = [...packages];
    const packed = await pool(
      entries.map(
        ([name, { directory }]) =>
          () =>
            pack(directory, join(tarballDirectory, name.replace(/[@/]/g, '_'))),
      ),
      2,
    );
    const tarballs = new Map(entries.map(([name], index) => [name, packed[index]]));
    console.log(`packed ${entries.length} packages in ${seconds(packStarted)} s`);

    const canary = await packCanary(workspace, tarballDirectory);
    const canaryPackages = new Map([[canary.name, { manifest: canary.manifest }]]);
    const canaryReport = await checkPackage({
      name: canary.name,
      tarball: canary.tarball,
      packages: canaryPackages,
      tarballs: new Map([[canary.name, canary.tarball]]),
      workspace,
    });
    const missed = CANARY_FAULTS.filter(
      ([, pattern]) => !canaryReport.problems.some((problem) => pattern.test(problem)),
    ).map(([detector]) => detector);
    if (missed.length > 0) {
      console.log(
        `FAIL the check itself: the canary's faults went unnoticed by ${missed.join(', ')}`,
      );
      console.log(`  it reported:\n  ${canaryReport.problems.join('\n  ') || '(nothing)'}`);
      return 1;
    }
    console.log(
      `ok  canary: every detector caught its fault (${CANARY_FAULTS.length} of ${CANARY_FAULTS.length})`,
    );

    const prebuilds = await localPrebuilds(
      root,
      join(workspace, 'prebuilds'),
      'packages/mpl-proxy',
    );
    for (const note of prebuilds.notes) console.log(`native addon: ${note}`);

    const checkStarted = Date.now();
    const names = [...packages.keys()].filter((name) => only.length === 0 || only.includes(name));
    const reports = await pool(
      names.map(
        (name) => () =>
          checkPackage({
            name,
            tarball: tarballs.get(name),
            packages,
            tarballs,
            workspace,
            env: prebuilds.env,
          }),
      ),
      Math.max(1, Math.min(4, availableParallelism())),
    );
    console.log(`checked ${names.length} packages in ${seconds(checkStarted)} s`);
    const failures = [];
    names.forEach((name, index) => {
      const { lines, problems } = reports[index];
      if (problems.length === 0) console.log(`ok  ${name}`);
      else {
        failures.push(name);
        console.log(`FAIL ${name}\n  ${problems.join('\n  ')}`);
      }
      for (const line of lines) console.log(line);
    });
    if (failures.length > 0) {
      console.log(`Packaging check failed for: ${failures.join(', ')}`);
      return 1;
    }
    console.log(`Packaging check passed (${names.length} packages).`);
    return 0;
  } finally {
    await rm(workspace, { recursive: true, force: true });
  }
}

process.exitCode = await main();
