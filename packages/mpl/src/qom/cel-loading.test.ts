import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const packageDirectory = join(import.meta.dirname, '..', '..');

// Every module the process resolves through import (a resolve hook that appends its URL to
// MTPX_RESOLVED, a file) or loads with require (require.cache).
const recordImports = `data:text/javascript,${encodeURIComponent(`
import { register } from 'node:module';
register(${JSON.stringify(
  `data:text/javascript,${encodeURIComponent(`
import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(process.env.MTPX_RESOLVED, resolved.url + '\\n');
  return resolved;
}`)}`,
)});`)}`;

// In a process of its own: this worker's other test files compile assertion sets.
const script = `
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
const loaded = () =>
  readFileSync(process.env.MTPX_RESOLVED, 'utf8').includes('@bufbuild/cel') ||
  Object.keys(createRequire(import.meta.url).cache).some((file) => file.includes('@bufbuild/cel'));
await import('./src/index.ts');
const afterImport = loaded();
const { compileAssertionSet } = await import('./src/qom/assertions.ts');
const set = compileAssertionSet({
  name: 'loading',
  description: '',
  fail_fast: false,
  assertions: [{ id: 'a', expression: 'size(payload.name) > 2', message: '', severity: 'error', tags: [] }],
});
const report = set.evaluate({ name: 'x' });
console.log(JSON.stringify({ afterImport, afterCompile: loaded(), passed: report.results[0].passed }));
`;

describe('@bufbuild/cel is loaded when the first assertion set is compiled', () => {
  it('importing @mtpx/mpl loads none of it; compiling and evaluating CEL does', async () => {
    const resolved = join(await mkdtemp(join(tmpdir(), 'mtpx-cel-loading-')), 'resolved.txt');
    await writeFile(resolved, '');
    const { stdout } = await run(
      process.execPath,
      ['--import', recordImports, '--import', 'tsx', '--input-type=module', '--eval', script],
      { cwd: packageDirectory, env: { ...process.env, MTPX_RESOLVED: resolved } },
    );
    await rm(dirname(resolved), { recursive: true, force: true });
    expect(JSON.parse(stdout)).toEqual({ afterImport: false, afterCompile: true, passed: false });
  }, 120_000);
});
