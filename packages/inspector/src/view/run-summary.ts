import type { RunView } from './run-model';

/** One line of the runs list (`GET /api/runs`). */
export interface RunSummary {
  runId: string;
  status: RunView['status'];
  /** Wall-clock start, ISO 8601 (from the record's header). */
  startedAt?: string;
  input?: string;
  provider?: string;
  model?: string;
  agentName?: string;
  rounds: number;
  calls: number;
  /** Failed or skipped calls, plus one when the run failed. */
  errors: number;
  totalTokens: number;
  /** The run's length (so far, for a run in progress). */
  durationMs: number;
  finalText?: string;
  stopReason?: string;
  /** Calls waiting for a person's decision (a run that stopped with `awaiting_approval`). */
  pendingApprovals?: number;
  eventCount: number;
}

/**
 * The runs-list line of a run's view.
 *
 * @internal
 */
export function summarizeRun(
  view: RunView,
  facts: { startedAt?: string; eventCount: number },
): RunSummary {
  const calls = view.rounds.flatMap((round) => round.calls);
  const summary: RunSummary = {
    runId: view.runId,
    status: view.status,
    rounds: view.rounds.length,
    calls: calls.length,
    errors:
      calls.filter((call) => call.status === 'error' || call.status === 'skipped').length +
      (view.status === 'failed' ? 1 : 0),
    totalTokens:
      view.usage.totalTokens ?? (view.usage.inputTokens ?? 0) + (view.usage.outputTokens ?? 0),
    durationMs: view.durationMs ?? view.lastAt,
    eventCount: facts.eventCount,
  };
  for (const key of ['input', 'provider', 'model', 'agentName', 'finalText', 'stopReason'] as const)
    if (view[key] !== undefined) summary[key] = view[key];
  if (facts.startedAt !== undefined) summary.startedAt = facts.startedAt;
  if (view.pendingApprovals !== undefined) summary.pendingApprovals = view.pendingApprovals.length;
  return summary;
}
