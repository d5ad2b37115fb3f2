import { expect, it } from 'vitest';
import { exportedNames } from '../../../scripts/api/exported-names.mjs';

it('. exports exactly its public surface (a change here is a reviewed API change)', () => {
  expect(exportedNames(new URL('./index.ts', import.meta.url))).toEqual([
    'migratePostgres',
    'type PostgresConnectionOptions',
    'type PostgresPool',
    'type PostgresPoolClient',
    'PostgresProvenanceStore',
    'type PostgresProvenanceStoreOptions',
    'type PostgresQueryable',
    'type PostgresQueryResult',
    'PostgresRunJournal',
    'PostgresSessionStore',
    'PostgresStoreError',
    'type PostgresStoreErrorCode',
    'SCHEMA_VERSION',
    'VERSION',
  ]);
});
