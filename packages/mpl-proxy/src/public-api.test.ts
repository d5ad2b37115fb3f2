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

it('./internal exports exactly what the proxy shares outside its public API', () => {
  expect(exportedNames(new URL('./internal.ts', import.meta.url))).toEqual([
    'type CallRouteContext',
    'DEFAULT_HEADERS_TIMEOUT_MS',
    'DEFAULT_IDLE_TIMEOUT_MS',
    'DEFAULT_MAX_BODY_BYTES',
    'DEFAULT_MAX_HEADER_BYTES',
    'DEFAULT_PORT',
    'DEFAULT_REQUEST_TIMEOUT_MS',
    'isLoopbackAddress',
    'isPostgresUrl',
    'LOOPBACK_HOSTS',
    'MessageHub',
    'statusOf',
    'WalSync',
  ]);
});
