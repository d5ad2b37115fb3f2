#!/usr/bin/env node
// Import cycles between the source files of each package (type-only imports included: a
// cycle "broken" by `import type` still ties two files' designs together).
// `node scripts/api/import-cycles.mjs` prints each cycle and exits 1 when there is one.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function sources(dir) {
  const files = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== '__fixtures__' && name !== 'node_modules') files.push(...sources(path));
    } else if (/\.tsx?$/.test(name) && !/\.(test|test-d)\.tsx?$/.test(name)) files.push(path);
  }
  return files;
}

function resolveLocal(from, specifier) {
  const base = resolve(dirname(from), specifier);
  const candidates = [
    base,
    `${base}.ts`,
    `${base}.tsx`,
    join(base, 'index.ts'),
    base.replace(/\.js$/, '.ts'),
  ];
  return candidates.find((candidate) => /\.tsx?$/.test(candidate) && existsSync(candidate));
}

function importsOf(file) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const targets = [];
  for (const statement of source.statements) {
    const specifier =
      (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) &&
      statement.moduleSpecifier !== undefined &&
      ts.isStringLiteral(statement.moduleSpecifier)
        ? statement.moduleSpecifier.text
        : undefined;
    if (specifier?.startsWith('.')) {
      const target = resolveLocal(file, specifier);
      if (target !== undefined) targets.push(target);
    }
  }
  return targets;
}

/** The cycles (as lists of files relative to the repository) among `srcDir`'s files. */
export function importCycles(srcDir) {
  const files = sources(srcDir);
  const graph = new Map(files.map((file) => [file, importsOf(file)]));
  // Tarjan's strongly connected components; each component of 2+ files is a cycle.
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const cycles = [];
  const visit = (file) => {
    index.set(file, counter);
    low.set(file, counter);
    counter++;
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file), low.get(next)));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file), index.get(next)));
    }
    if (low.get(file) === index.get(file)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(relative(root, member));
      } while (member !== file);
      const selfImport = (graph.get(file) ?? []).includes(file);
      if (component.length > 1 || selfImport) cycles.push(component.sort());
    }
  };
  for (const file of files) if (!index.has(file)) visit(file);
  return cycles;
}

/** Every package's and app's cycles. */
export function allImportCycles() {
  const cycles = [];
  for (const group of ['packages', 'apps']) {
    for (const name of readdirSync(join(root, group))) {
      const src = join(root, group, name, 'src');
      if (existsSync(src)) cycles.push(...importCycles(src));
    }
  }
  return cycles;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const cycles = allImportCycles();
  for (const cycle of cycles) console.log(`cycle: ${cycle.join(' ↔ ')}`);
  console.log(`${cycles.length} import cycle(s) between files`);
  process.exit(cycles.length > 0 ? 1 : 0);
}
