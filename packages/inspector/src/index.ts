export { eventLine } from './event-json';
export { InspectorError, type InspectorErrorCode } from './inspector-error';
export { DEFAULT_DATA_DIR, DEFAULT_PORT, inspectorRunUrl } from './links';
export { RECORD_VERSION, type RecordedEvent, type RunRecordHeader } from './recorded-event';
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
export { VERSION } from './version';
