import { expect, it } from 'vitest';
import { exportedNames } from '../../../scripts/api/exported-names.mjs';

it('exports exactly its public surface (a change here is a reviewed API change)', () => {
  expect(exportedNames(new URL('./index.ts', import.meta.url))).toEqual([
    'type CallJobData',
    'type CallJobResult',
    'createRemoteTools',
    'type QueueLocation',
    'type RedisConnection',
    'type RemoteCallState',
    'type RemoteCallStateName',
    'remoteCallStateOf',
    'RemoteToolError',
    'type RemoteToolErrorCode',
    'type RemoteTools',
    'type RemoteToolsOptions',
    'type RemoteToolSpec',
    'RetryableCallError',
    'startToolWorker',
    'type ToolWorker',
    'type ToolWorkerClosed',
    'type ToolWorkerCloseOptions',
    'type ToolWorkerOptions',
    'VERSION',
  ]);
});

it('./internal exports exactly what sibling packages need (a change here is a reviewed change)', () => {
  expect(exportedNames(new URL('./internal.ts', import.meta.url))).toEqual([
    'jobIdOf',
    'retryDelayOf',
  ]);
});
