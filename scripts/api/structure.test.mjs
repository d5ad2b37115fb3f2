// The layout rules of ../shared/CONVENTIONS.md, checked over the whole tree: no import
// cycle between files, no package source file over 400 lines, every TSDoc example a
// type-checked region, every published package built before it is packed. Run by .ci/run (`node --test scripts/api/*.test.mjs`).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { checkExamples, sourceFiles } from '../docs/examples.mjs';
import { allImportCycles } from './import-cycles.mjs';

const root = resolve(import.meta.dirname, '../..');

test('no import cycle between the files of any package or app', () => {
  assert.deepEqual(allImportCycles(), []);
});

test('no package source file is over 400 lines', () => {
  const long = sourceFiles()
    .map((file) => [relative(root, file), readFileSync(file, 'utf8').split('\n').length - 1])
    .filter(([, lines]) => lines > 400)
    .map(([file, lines]) => `${file}: ${lines} lines`);
  assert.deepEqual(long, []);
});

test('every TSDoc example shows a region of a type-checked *.examples.ts file', () => {
  assert.deepEqual(checkExamples(), []);
});

test('every published package builds itself and its dependencies before it is packed', () => {
  // check-packages packs without scripts (it has just built everything), so a package
  // without this prepack would publish whatever dist/ a release found, or none.
  const prepack = 'node ../../scripts/build-dependencies.mjs --self';
  const missing = readdirSync(join(root, 'packages'))
    .map((name) => join(root, 'packages', name, 'package.json'))
    .map((file) => [relative(root, file), JSON.parse(readFileSync(file, 'utf8'))])
    .filter(([, manifest]) => !manifest.private && manifest.scripts?.prepack !== prepack)
    .map(([file]) => file);
  assert.deepEqual(missing, []);
});
