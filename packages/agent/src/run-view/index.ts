export {
  callViewOf,
  createRunView,
  type RunViewEvent,
  reduceRunView,
  runViewOf,
} from './reduce-run-view';
export { resolveKnownReferences } from './resolve-known';
export type {
  CallEdge,
  CallEvent,
  CallPhase,
  CallView,
  CallViewStatus,
  RoundSegment,
  RoundView,
  RunView,
  RunViewStatus,
  ServerToolView,
} from './run-view';
export { type UnknownEvent, unknownEvent } from './unknown-event';
