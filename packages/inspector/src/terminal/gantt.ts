import type { Colors } from './terminal-output';

/**
 * One row of a round's chart: the model's answer, or one tool call.
 *
 * @internal
 */
export interface GanttRow {
  label: string;
  /** When the row's work became possible: the call was complete in the model's stream. */
  readyAt?: number;
  /** When the work started (the model call, or the tool). */
  startAt: number;
  /** When it ended; `undefined` for a call that never ran. */
  endAt?: number;
  /** `model` streams; `ok`, `error`, `cached`, `skipped` are outcomes of calls. */
  kind: 'model' | 'ok' | 'error' | 'cached' | 'skipped';
  /** Shown after the bar. */
  note: string;
}

/**
 * Where a chart's axis starts and ends, and how many columns it spans.
 *
 * @internal
 */
export interface GanttAxis {
  fromMs: number;
  toMs: number;
  width: number;
}

const GLYPHS = { model: '▒', ok: '█', error: '█', cached: '░', skipped: '×', waiting: '·' };

/** The column a time falls in (`round: 'up'` for the end of a span, which is exclusive). */
function column(at: number, axis: GanttAxis, round: 'down' | 'up' = 'down'): number {
  const span = Math.max(1, axis.toMs - axis.fromMs);
  const exact = ((at - axis.fromMs) / span) * axis.width;
  const position = round === 'down' ? Math.floor(exact) : Math.ceil(exact);
  return Math.min(axis.width, Math.max(0, position));
}

/**
 * The bar of one row: blank, then `·` while it waited for its inputs, then its span.
 *
 * @internal
 */
export function ganttBar(
  row: GanttRow,
  axis: GanttAxis,
): { waiting: string; span: string; pad: string } {
  const start = Math.min(column(row.startAt, axis), axis.width - 1);
  const ready = row.readyAt === undefined ? start : Math.min(column(row.readyAt, axis), start);
  // Every span gets at least one column, so an instant call still shows where it ran.
  const end =
    row.endAt === undefined ? start + 1 : Math.max(start + 1, column(row.endAt, axis, 'up'));
  return {
    waiting: `${' '.repeat(ready)}${GLYPHS.waiting.repeat(start - ready)}`,
    span: GLYPHS[row.kind].repeat(end - start),
    pad: ' '.repeat(axis.width - end),
  };
}

/**
 * The tick line above the bars: the time since the round started at the left edge, a
 * quarter, half and three quarters of the way, and the end with its unit — all in
 * milliseconds (`800 ms`), or all in seconds when the axis spans one or more (`1.20 s`).
 * The end's label always shows; a label that would touch another is left out.
 *
 * @internal
 */
export function ganttTicks(axis: GanttAxis): string {
  const span = axis.toMs - axis.fromMs;
  const seconds = span >= 999.5;
  const value = (fraction: number) =>
    seconds ? ((span * fraction) / 1000).toFixed(2) : String(Math.round(span * fraction));
  const endLabel = `${value(1)} ${seconds ? 's' : 'ms'}`;
  const endStart = Math.max(axis.width - endLabel.length, 0);
  const cells: string[] = [];
  let free = 0;
  for (let index = 0; index < 4; index++) {
    const label = index === 0 ? '0' : value(index / 4);
    const position = Math.round(axis.width * (index / 4));
    if (position < free || position + label.length + 1 > endStart) continue;
    while (cells.length < position) cells.push(' ');
    cells.push(...label);
    free = cells.length + 1;
  }
  while (cells.length < endStart) cells.push(' ');
  cells.push(...endLabel);
  return cells.join('');
}

/**
 * A round drawn on one time axis: the model's stream and every call, side by side, so
 * calls that ran in parallel overlap and a call that waited for its `$ref` inputs shows
 * the wait (`·`) before its bar.
 *
 * @internal
 */
export function drawGantt(
  rows: readonly GanttRow[],
  axis: GanttAxis,
  colors: Colors,
  indent = '  ',
): string[] {
  const labelWidth = Math.max(...rows.map((row) => row.label.length));
  const paint = {
    model: colors.blue,
    ok: colors.green,
    error: colors.red,
    cached: colors.cyan,
    skipped: colors.yellow,
  };
  const lines = [`${indent}${' '.repeat(labelWidth)}  ${colors.dim(ganttTicks(axis))}`];
  for (const row of rows) {
    const bar = ganttBar(row, axis);
    lines.push(
      `${indent}${row.label.padEnd(labelWidth)}  ${colors.dim(bar.waiting)}${paint[row.kind](bar.span)}${bar.pad}  ${row.note}`,
    );
  }
  return lines;
}
