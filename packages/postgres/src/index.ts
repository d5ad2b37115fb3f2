export { migratePostgres } from './migrate-postgres';
export { SCHEMA_VERSION } from './migrations';
export type { PostgresConnectionOptions } from './postgres-connection';
export { PostgresStoreError, type PostgresStoreErrorCode } from './postgres-error';
export type {
  PostgresPool,
  PostgresPoolClient,
  PostgresQueryable,
  PostgresQueryResult,
} from './postgres-pool';
export {
  PostgresProvenanceStore,
  type PostgresProvenanceStoreOptions,
} from './postgres-provenance-store';
export { isTransientPostgresError, type PostgresRetryOptions } from './postgres-retry';
export { PostgresRunJournal, type PostgresRunJournalOptions } from './postgres-run-journal';
export { PostgresSessionStore } from './postgres-session-store';
export { VERSION } from './version';
