export { eventLine } from './event-json';
export { InspectorError, type InspectorErrorCode } from './inspector-error';
export { DEFAULT_DATA_DIR, DEFAULT_PORT, inspectorRunUrl } from './links';
export { RECORD_VERSION, type RecordedEvent, type RunRecordHeader } from './recorded-event';
export { type ReplayOptions, replayRun } from './replay';
export { INDEX_FILE, RUNS_FOLDER, runFileName, runFilePath } from './run-files';
export {
  buildRunView,
  type CallSegment,
  type CallView,
  type RoundView,
  type RunView,
  referencesIn,
  resolveWith,
} from './run-model';
export {
  type RecordableEvent,
  type RecordRunsOptions,
  type RunRecorder,
  recordRuns,
} from './run-recorder';
export { listRuns, parseRunText, type RecordedRun, readRun } from './run-store';
export { type RunSummary, summarizeRun } from './run-summary';
export {
  type InspectorServer,
  type ServeInspectorOptions,
  serveInspector,
} from './server/inspector-server';
export type { ProvenanceLink, ProvenanceSource } from './server/provenance';
export { formatSpan } from './terminal/durations';
export { formatCall, formatMs, formatValue, referencedIds } from './terminal/format';
export { drawGantt, type GanttAxis, type GanttRow, ganttBar, ganttTicks } from './terminal/gantt';
export { visibleLength, wrapLine } from './terminal/line-wrap';
export {
  type Colors,
  shorten,
  streamOutput,
  type TimelineOutput,
} from './terminal/terminal-output';
export { type TimelineOptions, TimelineView } from './terminal/timeline-view';
export { VERSION } from './version';
export { layoutRound, type RoundLayout, roundSpan } from './web/timeline-layout';
