import cluster from 'node:cluster';
import { ClusterMessageHub, type PrimaryChannel } from './cluster-message-hub';
import type { WorkerToPrimary } from './cluster-messages';
import { CLUSTER_WORKER_ENV } from './cluster-primary';

/** Whether this process is a worker of `mpl serve --workers N`. @internal */
export function isClusterWorker(): boolean {
  return cluster.isWorker && process.env[CLUSTER_WORKER_ENV] === '1';
}

/** The IPC channel of this worker to its primary. */
const primaryChannel: PrimaryChannel = {
  send: (message: WorkerToPrimary) => {
    process.send?.(message);
  },
  on: (event, listener) => {
    process.on(event, listener);
  },
  get connected() {
    return process.connected;
  },
};

/** The `GET /messages` hub of this worker, relaying through the primary. @internal */
export function clusterMessageHub(): ClusterMessageHub {
  return new ClusterMessageHub(primaryChannel);
}

/** Tells the primary this worker's proxy listens (the primary prints the startup line). @internal */
export function announceListening(url: string, description: string): void {
  primaryChannel.send({ type: 'mpl-listening', url, description });
}

/** Lets the worker exit once its proxy has closed: the IPC channel no longer holds it. @internal */
export function leaveCluster(): void {
  if (process.connected) process.disconnect();
}
