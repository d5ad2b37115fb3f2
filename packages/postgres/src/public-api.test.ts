import { expect, it } from 'vitest';
import { exportedNames } from '../../../scripts/api/exported-names.mjs';

it('. exports exactly its public surface (a change here is a reviewed API change)', () => {
  expect(exportedNames(new URL('./index.ts', import.meta.url))).toEqual([
    'isTransientPostgresError',
    'migratePostgres',
    'type PostgresConnectionOptions',
    'type PostgresPool',
    'type PostgresPoolClient',
    'PostgresProvenanceStore',
    'type PostgresProvenanceStoreOptions',
    'type PostgresQueryable',
    'type PostgresQueryResult',
    'type PostgresRetryOptions',
    'PostgresRunJournal',
    'type PostgresRunJournalOptions',
    'PostgresSessionStore',
    'PostgresStoreError',
    'type PostgresStoreErrorCode',
    'SCHEMA_VERSION',
    'VERSION',
  ]);
});
