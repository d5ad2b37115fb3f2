import type { AgentEvent } from '@mtpx/agent';
import { readRun } from '../record/run-store';
import { formatMs } from './format';
import { streamOutput } from './terminal-output';
import { TimelineView } from './timeline-view';

/** Options of {@link replayRun}. */
export interface ReplayOptions {
  /** Paint with ANSI colours. Default false. */
  color?: boolean;
  /** Columns of the round chart's time axis. Default 48. */
  chartWidth?: number;
}

/**
 * Prints a recorded run's timeline as the demo draws it live: each call as it became
 * ready, started and finished, then each round's chart on one time axis, the answer and
 * the usage. A partial run prints what was recorded and says it did not end.
 *
 * @throws {InspectorError} `run_not_found` when the folder holds no such run.
 */
export async function replayRun(
  dir: string,
  runId: string,
  out: { write(text: string): unknown },
  options: ReplayOptions = {},
): Promise<void> {
  const run = await readRun(dir, runId);
  const terminal = streamOutput(out, options.color ?? false);
  const { colors } = terminal;
  terminal.line(colors.bold(`replay of ${run.runId}`));
  terminal.line(
    `${terminal.label('recorded')}${run.header?.startedAt ?? 'unknown time'} · ${run.events.length} events${run.view.model ? ` · model ${run.view.model}` : ''}`,
  );
  const timeline = new TimelineView(terminal, { chartWidth: options.chartWidth ?? 48 });
  for (const event of run.events) timeline.handle(event as unknown as AgentEvent);
  if (run.view.status === 'running') {
    terminal.line();
    terminal.line(
      `${terminal.label('unfinished', colors.yellow)}the record ends at ${formatMs(run.view.lastAt)}: the run is still going, or its process died`,
    );
  }
}
