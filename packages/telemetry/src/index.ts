export { ATTRIBUTES, usageAttributes } from './attributes';
export {
  type TracedEvent,
  type TraceRunsOptions,
  type TracingHandler,
  traceRuns,
} from './trace-runs';
export { VERSION } from './version';
