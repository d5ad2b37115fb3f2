// The detectors of the packaging check (scripts/check-packages.mjs). Each returns a list
// of problems, written as lines for the person who must fix the package; [] means clean.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';

const execFileAsync = promisify(execFile);

/** Runs a command; resolves with its output, or rejects with `stdout`/`stderr` on the error. */
export function run(command, args, options = {}) {
  return execFileAsync(command, args, {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    ...options,
  });
}

/** What a command printed when it failed. */
export function failureOutput(error) {
  return `${error.stdout ?? ''}${error.stderr ?? ''}`.trim() || error.message;
}

/** Files a package ships beyond dist/, README, CHANGELOG and LICENSE, and reads at run time. */
const EXTRA_FILES = {
  // The built-in STypes, in the reference registry layout, resolved next to dist/.
  '@mtpx/mpl': /^package\/stypes\/.+\.json$/,
};
const ALLOWED_FILES = /^package\/(package\.json|README\.md|CHANGELOG\.md|LICENSE|dist\/.+)$/;

/** The tarball holds only what a package should ship. */
export async function strayFiles(name, tarball) {
  const { stdout } = await run('tar', ['-tzf', tarball]);
  const stray = stdout
    .split('\n')
    .filter(
      (entry) => entry !== '' && !ALLOWED_FILES.test(entry) && !EXTRA_FILES[name]?.test(entry),
    );
  return stray.length === 0
    ? []
    : [
        `tarball holds more than dist, README, CHANGELOG, LICENSE and package.json: ${stray.join(', ')}`,
      ];
}

/** Every file a manifest points at (`exports` targets, `bin`, `main`, `types`), as `package/…` paths. */
function manifestTargets(manifest) {
  const targets = new Set();
  const walk = (value) => {
    if (typeof value === 'string') targets.add(value);
    else if (value && typeof value === 'object')
      for (const inner of Object.values(value)) walk(inner);
  };
  walk(manifest.exports);
  walk(manifest.bin);
  walk(manifest.main);
  walk(manifest.types);
  return [...targets]
    .filter((target) => !target.includes('*'))
    .map((target) => `package/${target.replace(/^\.\//, '')}`);
}

/**
 * The tarball holds the code its manifest points at: a package packed before it was built
 * ships only its README and package.json, and nothing else would say so.
 */
export async function missingCode(tarball, manifest) {
  const { stdout } = await run('tar', ['-tzf', tarball]);
  const entries = new Set(stdout.split('\n'));
  const missing = manifestTargets(manifest).filter((target) => !entries.has(target));
  const problems = [];
  if (![...entries].some((entry) => entry.startsWith('package/dist/')))
    problems.push(
      'tarball holds no dist/: build the package before packing it (a `prepack` script)',
    );
  if (missing.length > 0)
    problems.push(`tarball lacks files its package.json points at: ${missing.join(', ')}`);
  return problems;
}

/**
 * publint's verdict on the packed tarball, read from its result object: every error and
 * every warning (strict mode reports warnings as errors) is a problem; suggestions are notes.
 */
export async function lintTarball(tarball) {
  const buffer = await readFile(tarball);
  const { messages, pkg } = await publint({
    pack: {
      tarball: buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength),
    },
    strict: true,
    level: 'suggestion',
  });
  const describe = (message) =>
    `publint ${message.type} ${message.code}: ${formatMessage(message, pkg, { color: false })}`;
  return {
    problems: messages.filter((message) => message.type !== 'suggestion').map(describe),
    notes: messages.filter((message) => message.type === 'suggestion').map(describe),
  };
}

const LOCAL_SPECIFIER = /^(workspace|link|file|catalog|portal):/;

/** The packed package.json names no dependency by a workspace-only specifier. */
export function localSpecifiers(manifest) {
  const problems = [];
  for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies'])
    for (const [dependency, range] of Object.entries(manifest[field] ?? {}))
      if (LOCAL_SPECIFIER.test(range))
        problems.push(
          `${field}.${dependency} is "${range}", which only resolves inside the workspace`,
        );
  return problems;
}

async function filesUnder(directory) {
  const entries = await readdir(directory, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath ?? entry.path, entry.name));
}

const IMPORT_PATTERNS = [
  /^\s*(?:import|export)\s[^;]*?\sfrom\s*["']([^"']+)["']/gm, // static, possibly multi-line
  /^\s*import\s*["']([^"']+)["']/gm, // side effect
  /\bimport\(\s*["']([^"']+)["']\s*\)/g, // dynamic, and `import("x").T` in declarations
  /\brequire\(\s*["']([^"']+)["']\s*\)/g,
];

/** The package a bare specifier names (`@scope/name/sub` → `@scope/name`); null for paths. */
export function packageNameOf(specifier) {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('#'))
    return null;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? null);
}

function isBuiltin(specifier) {
  return specifier.startsWith('node:') || builtinModules.includes(specifier.split('/')[0]);
}

/**
 * Every package the shipped code or declarations import, by file kind. Code runs in a
 * consumer's project only with what it declares; npm's hoisting can hide an undeclared
 * one, so the import test alone does not catch it.
 */
export async function importedPackages(packageDirectory) {
  const code = new Set();
  const declarations = new Set();
  for (const file of await filesUnder(join(packageDirectory, 'dist'))) {
    const target = /\.d\.[cm]?ts$/.test(file)
      ? declarations
      : /\.[cm]?js$/.test(file)
        ? code
        : null;
    if (target === null) continue;
    const text = await readFile(file, 'utf8');
    for (const pattern of IMPORT_PATTERNS)
      for (const match of text.matchAll(pattern)) {
        const specifier = match[1];
        const name = isBuiltin(specifier) ? null : packageNameOf(specifier);
        if (name !== null) target.add(name);
      }
  }
  return { code, declarations };
}

/** Imports of packages the manifest does not declare. */
export function undeclaredImports(manifest, imported) {
  const declared = new Set([
    manifest.name,
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}),
    ...Object.keys(manifest.optionalDependencies ?? {}),
  ]);
  const problems = [];
  for (const [kind, names] of [
    ['dist code', imported.code],
    ['dist declarations', imported.declarations],
  ])
    for (const name of names)
      if (!declared.has(name))
        problems.push(`${kind} import "${name}", which package.json does not declare`);
  return problems;
}

function shipsTypes(packageJson, directory) {
  return (
    packageJson.types !== undefined ||
    packageJson.typings !== undefined ||
    JSON.stringify(packageJson.exports ?? {}).includes('"types"') ||
    existsSync(join(directory, 'index.d.ts'))
  );
}

/**
 * Each package the declarations import has types where the consumer installed it: its
 * own, or an `@types/…` package the consumer got. Types from a devDependency are missing.
 */
export async function missingTypes(project, manifest, declarationImports) {
  const problems = [];
  for (const name of declarationImports) {
    if (name === manifest.name) continue;
    const roots = [
      join(project, 'node_modules', manifest.name, 'node_modules'),
      join(project, 'node_modules'),
    ];
    const directory = roots
      .map((root) => join(root, name))
      .find((candidate) => existsSync(candidate));
    if (directory === undefined) {
      problems.push(`dist declarations import "${name}", which is not installed for consumers`);
      continue;
    }
    const packageJson = JSON.parse(await readFile(join(directory, 'package.json'), 'utf8'));
    if (shipsTypes(packageJson, directory)) continue;
    const typesName = `@types/${name.startsWith('@') ? name.slice(1).replace('/', '__') : name}`;
    if (roots.some((root) => existsSync(join(root, typesName)))) continue;
    problems.push(
      `dist declarations import "${name}", which ships no types, and ${typesName} is not a dependency`,
    );
  }
  return problems;
}

/** Every internal package in the consumer came from its tarball, none from a registry. */
export async function registryCopies(project, internalNames) {
  const lock = JSON.parse(await readFile(join(project, 'package-lock.json'), 'utf8'));
  const problems = [];
  for (const [path, entry] of Object.entries(lock.packages ?? {})) {
    const name = path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
    if (internalNames.has(name) && !String(entry.resolved ?? '').startsWith('file:'))
      problems.push(
        `${path} was installed from ${entry.resolved ?? 'nowhere'}, not from its tarball`,
      );
  }
  return problems;
}
