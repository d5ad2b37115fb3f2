// `pnpm bench`: runs the six rows of issue 8, row 7 (issue 16) and row 8 (issue 17), prints one table, writes results.json.
import { writeFile } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { parseCliOptions, usage } from './cli-options';
import { type BenchConfig, fullConfig, quickConfig } from './config';
import { hashingRow } from './rows/hashing';
import { overheadRow } from './rows/overhead';
import { proxyRow } from './rows/proxy-throughput';
import { realisticToolsetRow } from './rows/realistic-toolset';
import { remoteDagRow } from './rows/remote-dag';
import { roundsSavedRow } from './rows/rounds-saved';
import { schedulingRow } from './rows/scheduling';
import { streamingDispatchRow } from './rows/streaming-dispatch';
import { toolSearchRow } from './rows/tool-search';
import { updateReadmeTable } from './support/readme-table';
import { type BenchResults, machineInfo, type RowResult } from './support/results';
import { renderFooter, renderTable } from './support/table';

const rowRunners: Record<number, (config: BenchConfig) => Promise<RowResult>> = {
  1: schedulingRow,
  2: overheadRow,
  3: roundsSavedRow,
  4: streamingDispatchRow,
  5: proxyRow,
  6: hashingRow,
  7: remoteDagRow,
  8: realisticToolsetRow,
  9: toolSearchRow,
};

const options = parseCliOptions(process.argv.slice(2));
if (options.help) {
  console.log(usage);
  process.exit(0);
}
const config = options.quick ? quickConfig : fullConfig;
const startedAt = new Date();
const rows: RowResult[] = [];
for (const row of options.rows) {
  const runner = rowRunners[row];
  if (!runner) throw new Error(`There is no row ${row}: the rows are 1 to 9.`);
  const started = performance.now();
  process.stderr.write(`row ${row}… `);
  rows.push(await runner(config));
  process.stderr.write(`${((performance.now() - started) / 1000).toFixed(1)} s\n`);
}
const results: BenchResults = {
  format: 1,
  mode: config.mode,
  startedAt: startedAt.toISOString(),
  durationSeconds: Math.round((Date.now() - startedAt.getTime()) / 100) / 10,
  machine: machineInfo(),
  rows,
};
const appDirectory = join(import.meta.dirname, '..');
const outFile = isAbsolute(options.out) ? options.out : join(appDirectory, options.out);
await writeFile(outFile, `${JSON.stringify(results, null, 2)}\n`);
const table = renderTable(results);
const footer = renderFooter(results);
console.log(table);
console.log();
console.log(footer);
console.log(`Results: ${outFile}`);
// A full run of every row into the committed results.json also refreshes the table the
// root README quotes, so the README's numbers are always those of results.json.
if (
  config.mode === 'full' &&
  options.rows.length === Object.keys(rowRunners).length &&
  options.out === 'results.json'
) {
  const readme = join(appDirectory, '..', '..', 'README.md');
  await updateReadmeTable(readme, `${table}\n\n${footer}`);
  console.log(`Table quoted in ${readme}`);
}
