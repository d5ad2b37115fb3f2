import { expect, it } from 'vitest';
import { exportedNames } from '../../../scripts/api/exported-names.mjs';

it('. exports exactly its public surface (a change here is a reviewed API change)', () => {
  expect(exportedNames(new URL('./index.ts', import.meta.url))).toEqual([
    'defaultDataDir',
    'type LogSyncStats',
    'openPostgresProvenanceStore',
    'ProxyMetrics',
    'type ProxyOptions',
    'type RunningProxy',
    'SqliteProvenanceStore',
    'type SqliteProvenanceStoreOptions',
    'startProxy',
    'VERSION',
  ]);
});

it('./reader exports exactly its public surface (a change here is a reviewed API change)', () => {
  expect(exportedNames(new URL('./reader.ts', import.meta.url))).toEqual([
    'openProvenanceReader',
    'type ProvenanceReader',
  ]);
});
