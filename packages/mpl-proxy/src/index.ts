export { type CallRouteContext, statusOf } from './call-route';
export { isLoopbackAddress, LOOPBACK_HOSTS } from './http-guard';
export { MessageHub } from './message-hub';
export { isPostgresUrl, openPostgresProvenanceStore } from './postgres-provenance';
export { ProxyMetrics } from './proxy-metrics';
export {
  DEFAULT_HEADERS_TIMEOUT_MS,
  DEFAULT_IDLE_TIMEOUT_MS,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_HEADER_BYTES,
  DEFAULT_PORT,
  DEFAULT_REQUEST_TIMEOUT_MS,
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
export type { LogSyncStats } from './wal-sync';
