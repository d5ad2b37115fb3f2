import type { UnknownEvent } from '@mtpx/agent/run-view';

/**
 * One event as the record keeps it: any event of the agent, the executor, MCP or a later
 * version, with `type` always there and the rest as JSON (the shape of the agent's
 * `UnknownEvent`). Errors are kept as `{ name, message, code? }`.
 */
export type RecordedEvent = UnknownEvent;

/** The first line of a run's file: what the record is and when it began. */
export interface RunRecordHeader {
  $record: 'mtpx-run';
  /** The record format's version (1). */
  version: 1;
  runId: string;
  /** Wall-clock time of the run's `at = 0`, ISO 8601. */
  startedAt: string;
}

/** The record format's version this package writes. */
export const RECORD_VERSION = 1;
