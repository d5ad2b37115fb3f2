import { formatStat } from './format';
import type { BenchResults, ResultLine, RowResult } from './results';

const header = ['row', 'benchmark', 'variant', 'median (min – max)', 'ratio (min – max)', 'notes'];

function cells(row: RowResult, line: ResultLine, first: boolean): string[] {
  return [
    first ? `${row.row}. ${row.title}` : '',
    line.benchmark,
    line.variant,
    formatStat(line.value, line.unit),
    line.ratio ? `${formatStat(line.ratio.value, '×')} ${line.ratio.to}` : '',
    line.note ?? '',
  ];
}

function escapeCell(text: string): string {
  return text.replaceAll('|', '\\|');
}

/**
 * The run as one Markdown table: a line per variant, the row's title on its first line.
 * The root README quotes this text as it is, so it is a pure function of `results.json`.
 */
export function renderTable(results: BenchResults): string {
  const lines = [`| ${header.join(' | ')} |`, `| ${header.map(() => '---').join(' | ')} |`];
  for (const row of results.rows) {
    row.lines.forEach((line, index) => {
      lines.push(
        `| ${cells(row, line, index === 0)
          .map(escapeCell)
          .join(' | ')} |`,
      );
    });
  }
  return lines.join('\n');
}

/** The line under the table: mode, machine and how long the run took. */
export function renderFooter(results: BenchResults): string {
  const { machine } = results;
  return (
    `${results.mode === 'quick' ? 'Quick mode (tiny sizes: proves the bench runs; the numbers mean nothing). ' : ''}` +
    `Measured ${results.startedAt.slice(0, 10)} on ${machine.cores} × ${machine.cpuModel}, ` +
    `Node ${machine.node}, ${machine.platform}; ${results.durationSeconds} s in all. ` +
    'Median of the repetitions with min – max; ratios are paired per repetition.'
  );
}
