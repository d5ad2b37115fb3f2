import type { RecordedEvent } from '../record/recorded-event';
import type { RunView } from '../view/run-model';
import type { RunSummary } from '../view/run-summary';

/** `GET /api/runs/:runId`. */
export interface RunResponse {
  runId: string;
  summary: RunSummary;
  header: { startedAt?: string } | null;
  skippedLines: number;
  view: RunView;
  events: RecordedEvent[];
}

async function getJson<T>(path: string): Promise<T> {
  const response = await fetch(path, { headers: { accept: 'application/json' } });
  const body = (await response.json()) as T & { error?: { message: string } };
  if (!response.ok) throw new Error(body.error?.message ?? `${path}: ${response.status}`);
  return body;
}

/** The runs list. */
export function fetchRuns(): Promise<{ runs: RunSummary[] }> {
  return getJson('/api/runs');
}

/** One run with its events. */
export function fetchRun(runId: string): Promise<RunResponse> {
  return getJson(`/api/runs/${encodeURIComponent(runId)}`);
}

/** A plan's provenance chain, each link verified. */
export function fetchProvenance(planId: string): Promise<{
  planId: string;
  valid: boolean;
  head: string | null;
  links: Array<{ entry: Record<string, unknown>; verified: boolean; problems: string[] }>;
}> {
  return getJson(`/api/provenance?planId=${encodeURIComponent(planId)}`);
}

/**
 * Follows a run's new events (server-sent events from event `from` on); returns a stop
 * function. `onEnd` fires when the run has ended.
 */
export function followRun(
  runId: string,
  from: number,
  onEvent: (event: RecordedEvent) => void,
  onEnd: () => void,
): () => void {
  const source = new EventSource(`/api/runs/${encodeURIComponent(runId)}/events?from=${from}`);
  source.addEventListener('run-event', (message) => {
    try {
      onEvent(JSON.parse((message as MessageEvent<string>).data) as RecordedEvent);
    } catch {
      // A line the server sent is its own JSON: nothing to do with a bad one.
    }
  });
  source.addEventListener('run-ended', () => {
    source.close();
    onEnd();
  });
  return () => source.close();
}
