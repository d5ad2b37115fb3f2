#!/usr/bin/env node
// The names a package entry exports, read from its source (no build, no type checker):
// `export { a, type B } from './x'`, `export * from './x'` (followed inside the package),
// and local declarations. Types are listed as `type Name`. Each package pins its public
// list with a test (`src/public-api.test.ts`), so a new export is a reviewed decision.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/**
 * The sorted export list of `entry` (a path or file URL of a `.ts` file): values by name,
 * types as `type Name`, namespaces as `* as name`.
 */
export function exportedNames(entry) {
  const file = typeof entry === 'string' ? entry : fileURLToPath(entry);
  const names = new Set();
  collect(resolve(file), names, new Set());
  return [...names].sort((a, b) => bare(a).localeCompare(bare(b)) || a.localeCompare(b));
}

function bare(name) {
  return name.replace(/^type /, '').replace(/^\* as /, '');
}

function collect(file, names, visited) {
  if (visited.has(file)) return;
  visited.add(file);
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement)) {
      const typeOnly = statement.isTypeOnly;
      const clause = statement.exportClause;
      const from = statement.moduleSpecifier?.text;
      if (clause === undefined) {
        if (from === undefined) continue;
        const target = localModule(file, from);
        if (target === undefined) throw new Error(`${file}: cannot follow export * from '${from}'`);
        const inner = new Set();
        collect(target, inner, visited);
        for (const name of inner)
          names.add(typeOnly && !name.startsWith('type ') ? `type ${name}` : name);
      } else if (ts.isNamespaceExport(clause)) {
        names.add(`* as ${clause.name.text}`);
      } else {
        for (const element of clause.elements) {
          const type = typeOnly || element.isTypeOnly;
          names.add(type ? `type ${element.name.text}` : element.name.text);
        }
      }
      continue;
    }
    const modifiers = ts.canHaveModifiers(statement) ? ts.getModifiers(statement) : undefined;
    if (!modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword)) continue;
    if (ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) {
      names.add(`type ${statement.name.text}`);
    } else if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        if (ts.isIdentifier(declaration.name)) names.add(declaration.name.text);
      }
    } else if (statement.name !== undefined) {
      names.add(statement.name.text);
    }
  }
}

function localModule(file, specifier) {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(file), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}/index.ts`, base.replace(/\.js$/, '.ts')]) {
    if (candidate.endsWith('.ts') && existsSync(candidate)) return candidate;
  }
  return undefined;
}

// `node scripts/api/exported-names.mjs [package-dir …]`: each entry point's count (every
// `exports` entry of the package.json), and the total.
if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
  const { readdirSync } = await import('node:fs');
  const dirs = process.argv.slice(2);
  const packages =
    dirs.length > 0
      ? dirs
      : readdirSync(resolve(root, 'packages')).map((name) => `packages/${name}`);
  let publicTotal = 0;
  for (const dir of packages) {
    const manifest = JSON.parse(readFileSync(resolve(root, dir, 'package.json'), 'utf8'));
    if (manifest.private) continue;
    for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
      if (subpath === './package.json') continue;
      const built = typeof target === 'string' ? target : target.import;
      const sourceFile = resolve(
        root,
        dir,
        built.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts'),
      );
      const count = exportedNames(sourceFile).length;
      const internal = subpath === './internal';
      if (!internal) publicTotal += count;
      console.log(
        `${manifest.name}${subpath === '.' ? '' : subpath.slice(1)}\t${count}${internal ? '\t(internal)' : ''}`,
      );
    }
  }
  console.log(`public total\t${publicTotal}`);
}
