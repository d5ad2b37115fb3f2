export { RemoteToolError, type RemoteToolErrorCode } from './errors';
export type { QueueLocation, RedisConnection } from './queue-names';
export {
  type RemoteCallState,
  type RemoteCallStateName,
  remoteCallStateOf,
} from './remote-call-state';
export {
  createRemoteTools,
  type RemoteToolSpec,
  type RemoteTools,
  type RemoteToolsOptions,
} from './remote-tools';
export { RetryableCallError } from './retry-delay';
export {
  startToolWorker,
  type ToolWorker,
  type ToolWorkerCloseOptions,
  type ToolWorkerOptions,
} from './tool-worker';
export { VERSION } from './version';
export type { CallJobData, CallJobResult } from './wire';
export type { ToolWorkerClosed } from './worker-shutdown';
