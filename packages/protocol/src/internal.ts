// `@mtpx/protocol/internal`: what sibling packages (@mtpx/executor, @mtpx/agent,
// @mtpx/providers, @mtpx/telemetry) need from @mtpx/protocol but users should not. Each
// symbol is tagged `@internal` where it is declared.
export { inspectToolCall, type ToolCallInspection } from './call-graph';
export { describeValue } from './json';
export {
  cloneJson,
  DEFAULT_JSON_MAX_DEPTH,
  type JsonBounds,
  type JsonBoundsProblem,
  type JsonMeasure,
  measureJson,
  setOwnProperty,
} from './json-bounds';
export {
  evaluateJsonPointer,
  JsonPointerError,
  type JsonPointerErrorCode,
  parseJsonPointer,
} from './json-pointer';
export { type JsonReplacement, replaceAt } from './json-rewrite';
export { reasoningText, serverToolParts } from './provider-parts';
export {
  isReference,
  type LocatedReference,
  type MalformedReference,
  type ReferenceScan,
  scanReferences,
} from './refs';
