export { ProxyMetrics } from './proxy-metrics';
export {
  defaultDataDir,
  type ProxyOptions,
  type RunningProxy,
} from './proxy-options';
export { startProxy } from './server';
export { openPostgresProvenanceStore } from './store/postgres-provenance';
export {
  SqliteProvenanceStore,
  type SqliteProvenanceStoreOptions,
} from './store/sqlite-provenance-store';
export type { LogSyncStats } from './store/wal-sync';
export { VERSION } from './version';
