export { InspectorError, type InspectorErrorCode } from './inspector-error';
export { DEFAULT_DATA_DIR, DEFAULT_PORT, inspectorRunUrl } from './links';
export { RECORD_VERSION, type RecordedEvent, type RunRecordHeader } from './recorded-event';
export { type ReplayOptions, replayRun } from './replay';
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
export { listRuns, type RecordedRun, readRun } from './run-store';
export type { RunSummary } from './run-summary';
export {
  type InspectorServer,
  type ServeInspectorOptions,
  serveInspector,
} from './server/inspector-server';
export type { ProvenanceLink, ProvenanceSource } from './server/provenance';
export { referencedIds } from './terminal/format';
export { type Colors, streamOutput, type TimelineOutput } from './terminal/terminal-output';
export { type TimelineOptions, TimelineView } from './terminal/timeline-view';
export { VERSION } from './version';
