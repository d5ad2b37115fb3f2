#!/usr/bin/env node
// `pnpm run docs` (`pnpm docs` alone is pnpm's own command): the API reference of every published package, generated from the TSDoc by
// TypeDoc, with the guides and the error-code page, into docs/site/. Offline. The packages
// are discovered under packages/ (each one's `exports` mapped back to src/), so a new
// package is covered without touching this file. Any TypeDoc warning fails the build —
// a broken link, an export without TSDoc, a type referenced but not exported — and so
// does an error-code page that differs from the code unions.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Application, Converter, ReflectionKind } from 'typedoc';
import { compareErrorCodes } from './error-code-unions.mjs';

const root = join(import.meta.dirname, '..', '..');
const out = join(root, 'docs', 'site');

/** Every published package and its entry points: `exports` targets in dist/ → their sources. */
function publishedPackages() {
  const packages = [];
  for (const name of readdirSync(join(root, 'packages')).sort()) {
    const directory = join(root, 'packages', name);
    let manifest;
    try {
      manifest = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8'));
    } catch {
      continue;
    }
    if (manifest.private) continue;
    const entries = [];
    for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
      const file = typeof target === 'string' ? target : (target.import ?? target.default);
      if (typeof file !== 'string' || !file.startsWith('./dist/')) continue;
      const source = join(directory, file.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts'));
      const specifier = subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`;
      // `./internal` is for sibling packages (tagged @internal): resolved, not documented.
      entries.push({ specifier, source, documented: subpath !== './internal' });
    }
    packages.push({ name: manifest.name, directory, entries });
  }
  return packages;
}

const packages = publishedPackages();
const allEntries = packages.flatMap((pkg) => pkg.entries);
const entries = allEntries.filter((entry) => entry.documented);

// One program over every package's sources, each `@mtpx/…` import resolved to its source,
// so links between packages resolve inside the reference.
const cache = join(root, 'node_modules', '.cache', 'mtpx-docs');
mkdirSync(cache, { recursive: true });
const tsconfig = join(cache, 'tsconfig.json');
writeFileSync(
  tsconfig,
  JSON.stringify(
    {
      extends: join(root, 'tsconfig.base.json'),
      compilerOptions: {
        noEmit: true,
        // @mtpx/inspector's web app is in the same program and needs the DOM's types; streams
        // are async iterable, as in Node (@mtpx/ai-sdk reads them so).
        lib: ['ES2023', 'DOM', 'DOM.Iterable', 'DOM.AsyncIterable'],
        paths: Object.fromEntries(allEntries.map((entry) => [entry.specifier, [entry.source]])),
      },
      include: packages.map((pkg) => join(pkg.directory, 'src')),
      exclude: ['**/*.test.ts', '**/*.test-d.ts'],
    },
    null,
    2,
  ),
);

const errorPage = readFileSync(join(root, 'docs', 'error-codes.md'), 'utf8');
const errorProblems = compareErrorCodes(errorPage);
if (errorProblems.length > 0) {
  console.error(
    `docs/error-codes.md differs from the code unions:\n  ${errorProblems.join('\n  ')}`,
  );
  process.exit(1);
}

const app = await Application.bootstrapWithPlugins({
  name: 'MTPX for TypeScript',
  entryPoints: entries.map((entry) => entry.source),
  entryPointStrategy: 'resolve',
  tsconfig,
  out,
  readme: join(root, 'docs', 'index.md'),
  projectDocuments: [
    join(root, 'docs', 'architecture.md'),
    join(root, 'docs', 'glossary.md'),
    join(root, 'docs', 'guides', '*.md'),
    join(root, 'docs', 'error-codes.md'),
  ],
  excludePrivate: true,
  excludeInternal: true,
  excludeExternals: true,
  treatWarningsAsErrors: true,
  validation: { notExported: true, invalidLink: true, rewrittenLink: true, notDocumented: true },
  // Reflections belong to the package whose package.json is nearest; every published one must be documented.
  packagesRequiringDocumentation: packages.map((pkg) => pkg.name),
  requiredToBeDocumented: [
    'Enum',
    'EnumMember',
    'Variable',
    'Function',
    'Class',
    'Interface',
    'TypeAlias',
    'Method',
    'Accessor',
  ],
  sort: ['kind', 'alphabetical'],
  githubPages: false,
  disableSources: true,
  logLevel: 'Warn',
});

// Modules are named for what users import (`@mtpx/executor/toolkits`), not for the paths
// TypeDoc derives (`executor/src/toolkits`: relative to the entries' common folder, without
// `/index` and the extension); renamed as they are made, so links can use the names.
const base = join(root, 'packages');
const byDerivedName = new Map(
  entries.map((entry) => [
    relative(base, entry.source)
      .replace(/\.ts$/, '')
      .replace(/\/index$/, ''),
    entry.specifier,
  ]),
);
app.converter.on(Converter.EVENT_CREATE_DECLARATION, (_context, reflection) => {
  if (!reflection.kindOf(ReflectionKind.Module)) return;
  const specifier = byDerivedName.get(reflection.name);
  if (specifier) reflection.name = specifier;
});

const project = await app.convert();
if (!project) process.exit(1);
app.validate(project);
if (app.logger.hasErrors() || app.logger.hasWarnings()) process.exit(1);
await app.generateDocs(project, out);
if (app.logger.hasErrors() || app.logger.hasWarnings()) process.exit(1);
console.log(
  `docs: ${packages.length} packages, ${entries.length} entry points → ${relative(root, out)}/index.html`,
);
