export { type CallRouteContext, statusOf } from './call-route';
export { MessageHub } from './message-hub';
export { isPostgresUrl, openPostgresProvenanceStore } from './postgres-provenance';
export { ProxyMetrics } from './proxy-metrics';
export {
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_PORT,
  defaultDataDir,
  type ProxyOptions,
  type RunningProxy,
  startProxy,
} from './server';
export {
  SqliteProvenanceStore,
  type SqliteProvenanceStoreOptions,
} from './sqlite-provenance-store';
export { VERSION } from './version';
