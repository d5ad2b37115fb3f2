#!/usr/bin/env node
// TSDoc examples that compile. An `@example` block in a package's source names the region
// of a type-checked `*.examples.ts` file it shows:
//
//   * @example
//   * ```ts source="./executor.examples.ts#createExecutor"
//   * const executor = createExecutor({ tools: [calculatorToolkit()] });
//   * ```
//
//   //#region createExecutor
//   const executor = createExecutor({ tools: [calculatorToolkit()] });
//   //#endregion createExecutor
//
// `node scripts/docs/examples.mjs` checks that every example names a region and shows it
// as it is (exit 1 otherwise); `--write` copies each region into the comments that name it.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Every non-test `.ts` source file of the packages. */
export function sourceFiles(base = join(root, 'packages')) {
  const files = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      if (name === 'node_modules' || name === 'dist' || name === '__fixtures__') continue;
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.tsx?$/.test(name) && !/\.(test|test-d|examples)\.tsx?$/.test(name))
        files.push(path);
    }
  };
  for (const name of readdirSync(base)) {
    const src = join(base, name, 'src');
    if (existsSync(src)) walk(src);
  }
  return files;
}

/** The `//#region name` … `//#endregion` bodies of an examples file, dedented. */
export function regionsOf(text) {
  const regions = new Map();
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const open = /^\s*\/\/\s*#region\s+(\S+)/.exec(lines[index]);
    if (open === null) continue;
    const body = [];
    let closed = false;
    for (index++; index < lines.length; index++) {
      if (/^\s*\/\/\s*#endregion\b/.test(lines[index])) {
        closed = true;
        break;
      }
      body.push(lines[index]);
    }
    if (closed) regions.set(open[1], dedent(body));
  }
  return regions;
}

function dedent(lines) {
  const indents = lines
    .filter((line) => line.trim() !== '')
    .map((line) => /^ */.exec(line)[0].length);
  const cut = indents.length === 0 ? 0 : Math.min(...indents);
  return lines.map((line) => line.slice(cut).trimEnd());
}

const fence = /^(\s*\*\s?)```(ts|typescript)(.*)$/;

/**
 * The examples of one source file: `{ line, source, body, start, end }` per fenced block
 * that follows an `@example` tag (`start` / `end`: the lines of its body).
 */
export function examplesOf(text) {
  const lines = text.split('\n');
  const examples = [];
  let inExample = false;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index];
    if (/^\s*\*\s*@example\b/.test(line)) inExample = true;
    else if (/^\s*\*\s*@\w/.test(line) || /\*\//.test(line)) inExample = false;
    const open = inExample ? fence.exec(line) : null;
    if (open === null) continue;
    const source = /source="([^"]+)"/.exec(open[3])?.[1];
    const start = index + 1;
    let end = start;
    while (end < lines.length && !/^\s*\*\s?```\s*$/.test(lines[end])) end++;
    const body = lines
      .slice(start, end)
      .map((bodyLine) => bodyLine.replace(/^\s*\*( |$)/, '').trimEnd());
    examples.push({ line: index + 1, prefix: open[1], source, body, start, end });
    index = end;
    inExample = false;
  }
  return examples;
}

/** Checks (or with `write`, syncs) every example; returns the problems found. */
export function checkExamples({ write = false, files = sourceFiles() } = {}) {
  const problems = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const examples = examplesOf(text);
    if (examples.length === 0) continue;
    const lines = text.split('\n');
    let changed = false;
    // From the last, so line numbers of earlier examples stay right while writing.
    for (const example of [...examples].reverse()) {
      const where = `${relative(root, file)}:${example.line}`;
      if (example.source === undefined) {
        problems.push(`${where}: the example names no source="./file.examples.ts#region"`);
        continue;
      }
      const [path, region] = example.source.split('#');
      const examplesFile = resolve(dirname(file), path);
      if (region === undefined || !existsSync(examplesFile)) {
        problems.push(`${where}: ${example.source} does not name a region of an existing file`);
        continue;
      }
      const body = regionsOf(readFileSync(examplesFile, 'utf8')).get(region);
      if (body === undefined) {
        problems.push(`${where}: ${path} has no region ${region}`);
        continue;
      }
      if (body.join('\n') === example.body.join('\n')) continue;
      if (write) {
        const prefix = example.prefix.replace(/\s$/, '');
        lines.splice(
          example.start,
          example.end - example.start,
          ...body.map((line) => (line === '' ? prefix : `${prefix} ${line}`)),
        );
        changed = true;
      } else {
        problems.push(
          `${where}: the example differs from ${example.source} (run node scripts/docs/examples.mjs --write)`,
        );
      }
    }
    if (changed) writeFileSync(file, lines.join('\n'));
  }
  return problems;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const problems = checkExamples({ write: process.argv.includes('--write') });
  for (const problem of problems) console.error(problem);
  if (problems.length > 0) {
    console.error(
      `${problems.length} TSDoc example(s) not backed by a type-checked *.examples.ts region.`,
    );
    process.exit(1);
  }
  console.log('Every TSDoc example shows a type-checked region.');
}
