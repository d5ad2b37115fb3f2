export { InspectorError, type InspectorErrorCode } from './inspector-error';
export { DEFAULT_DATA_DIR, DEFAULT_PORT, inspectorRunUrl } from './links';
export { RECORD_VERSION, type RecordedEvent, type RunRecordHeader } from './record/recorded-event';
export {
  type RecordableEvent,
  type RecordRunsOptions,
  type RunRecorder,
  recordRuns,
} from './record/run-recorder';
export { listRuns, type RecordedRun, readRun } from './record/run-store';
export {
  type InspectorServer,
  type ServeInspectorOptions,
  serveInspector,
} from './server/inspector-server';
export type { ProvenanceLink, ProvenanceSource } from './server/provenance';
export { referencedIds } from './terminal/format';
export { type ReplayOptions, replayRun } from './terminal/replay';
export { type Colors, streamOutput, type TimelineOutput } from './terminal/terminal-output';
export { type TimelineOptions, TimelineView } from './terminal/timeline-view';
export { VERSION } from './version';
export {
  buildRunView,
  type CallSegment,
  type CallView,
  type PendingApprovalView,
  type RoundView,
  type RunView,
  referencesIn,
  resolveWith,
} from './view/run-model';
export type { RunSummary } from './view/run-summary';
