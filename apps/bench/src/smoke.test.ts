// The smoke test CI runs: the whole bench in quick mode, as `pnpm bench --quick` runs it,
// checking the shape of what it prints and writes. No timing is asserted: the numbers of
// a quick run mean nothing, and speed is judged by reading a full run.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BenchResults } from './support/results';
import type { Stat } from './support/stats';
import { renderTable } from './support/table';

const appDirectory = join(import.meta.dirname, '..');

/**
 * Lines per row: row 1 has 4 variants per DAG size and 2 for the capped toolkit; the others
 * as the issue lists them.
 */
const linesPerRow: Record<number, number> = {
  1: 10,
  2: 7,
  3: 3,
  4: 5,
  5: 12,
  6: 6,
  7: 14,
  8: 4,
  9: 21,
};

function expectStat(stat: Stat, repetitions: number): void {
  expect(stat.samples).toHaveLength(repetitions);
  for (const value of [stat.median, stat.min, stat.max, ...stat.samples]) {
    expect(Number.isFinite(value)).toBe(true);
  }
  expect(stat.min).toBeLessThanOrEqual(stat.median);
  expect(stat.median).toBeLessThanOrEqual(stat.max);
}

describe('pnpm bench --quick', () => {
  let directory = '';
  let stdout = '';
  let results: BenchResults;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'mtpx-bench-smoke-'));
    const out = join(directory, 'results.json');
    const run = await promisify(execFile)(
      process.execPath,
      ['--import', import.meta.resolve('tsx'), 'src/main.ts', '--quick', '--out', out],
      // Killed before the hook's own limit, so a run that hangs leaves no process behind.
      { cwd: appDirectory, encoding: 'utf8', maxBuffer: 1 << 24, timeout: 400_000 },
    );
    stdout = run.stdout;
    results = JSON.parse(await readFile(out, 'utf8')) as BenchResults;
    // Every row once, quick: about 30 s alone, twice that beside CI's other packages (and
    // row 9's first run installs AI SDK 7 into .tools/).
  }, 420_000);

  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('writes every row, each line a median with min and max over its repetitions', () => {
    expect(results).toMatchObject({ format: 1, mode: 'quick' });
    expect(results.machine.cores).toBeGreaterThan(0);
    expect(results.machine.node).toBe(process.version);
    expect(results.rows.map((row) => row.row)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    for (const row of results.rows) {
      expect(row.lines, `row ${row.row}`).toHaveLength(linesPerRow[row.row] as number);
      for (const line of row.lines) {
        expectStat(line.value, row.repetitions);
        if (line.ratio) expectStat(line.ratio.value, row.repetitions);
      }
    }
  });

  it('prints the table of exactly what it wrote', () => {
    expect(stdout).toContain(renderTable(results));
  });
});
