import type { RecordedEvent } from './recorded-event';

/** Events whose payloads are plain JSON (no `Error`, no `bigint`). */
const plainTypes = new Set([
  'text-delta',
  'tool-call-delta',
  'tool-call-ready',
  'round-started',
  'plan-started',
  'call-started',
  'call-progress',
  'call-retried',
  'call-finished',
  'call-skipped',
  'plan-finished',
  'reasoning-delta',
]);

function replacer(_key: string, value: unknown): unknown {
  if (value instanceof Error) {
    const code = (value as { code?: unknown }).code;
    return {
      name: value.name,
      message: value.message,
      ...(typeof code === 'string' || typeof code === 'number' ? { code } : {}),
    };
  }
  if (typeof value === 'bigint') return value.toString();
  return value;
}

/**
 * An event as one JSON line (no newline inside). Errors keep their name, message and
 * code; a value JSON cannot hold (a cycle) leaves the event's `type`, `at` and `runId`
 * with `unrecordable: true`, so the line is still there.
 *
 * @internal
 */
export function eventLine(event: { type: string; at?: unknown; runId?: unknown }): string {
  try {
    // The hot events hold plain JSON: no replacer, which halves the cost.
    return plainTypes.has(event.type) ? JSON.stringify(event) : JSON.stringify(event, replacer);
  } catch (error) {
    const kept: RecordedEvent = { type: String(event.type), unrecordable: true };
    if (typeof event.at === 'number') kept.at = event.at;
    if (typeof event.runId === 'string') kept.runId = event.runId;
    kept.reason = error instanceof Error ? error.message : String(error);
    return JSON.stringify(kept);
  }
}
