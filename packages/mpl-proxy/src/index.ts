export { isLoopbackAddress, LOOPBACK_HOSTS } from './http-guard';
export { ProxyMetrics } from './proxy-metrics';
export type { CallRouteContext } from './routes/call-context';
export { statusOf } from './routes/error-status';
export { MessageHub } from './routes/message-hub';
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
export { isPostgresUrl, openPostgresProvenanceStore } from './store/postgres-provenance';
export {
  SqliteProvenanceStore,
  type SqliteProvenanceStoreOptions,
} from './store/sqlite-provenance-store';
export type { LogSyncStats } from './store/wal-sync';
export { VERSION } from './version';
