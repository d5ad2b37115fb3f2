import type { ToolResult, Usage } from '@mtpx/protocol';
import type { StopReason } from '../run/run-output';
import type { RunRecord } from './session';

/** A session's record of a run that ended: `failed` when it has no stop reason. */
export function runRecord(run: {
  runId: string;
  input: string;
  final_text: string;
  rounds: number;
  usage: Usage;
  tool_results: ToolResult[];
  startedAt: string;
  stopReason: StopReason | undefined;
  error: unknown;
}): RunRecord {
  const { stopReason, error } = run;
  const record: RunRecord = {
    run_id: run.runId,
    input: run.input,
    status:
      stopReason === undefined ? 'failed' : stopReason === 'cancelled' ? 'cancelled' : 'finished',
    final_text: run.final_text,
    rounds: run.rounds,
    usage: run.usage,
    tool_results: run.tool_results,
    started_at: run.startedAt,
    finished_at: new Date().toISOString(),
  };
  if (stopReason !== undefined) record.stop_reason = stopReason;
  if (error !== undefined) record.error = errorMessage(error);
  return record;
}

/** An error's message, or the value as text. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
