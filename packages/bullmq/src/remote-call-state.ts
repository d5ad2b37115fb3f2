import type { ExecutorEvent, ToolProgress } from '@mtpx/executor';
import { isJsonObject } from '@mtpx/protocol';

/**
 * What the orchestrator knows about a remote call it waits for, beyond `call-started` and
 * `call-finished`:
 *
 * - `disconnected`: the orchestrator lost its connection to Redis; the call keeps waiting
 *   (its job and its worker may be fine) until the connection returns or its deadline passes;
 * - `reconnected`: the connection is back; the call's job is checked at once;
 * - `lost`: the call's job no longer exists in Redis (a Redis restarted without
 *   persistence lost it): the call fails with `job_lost`, retryable — it may or may not
 *   have run, and running it again with the same idempotency key is safe;
 * - `deadline-exceeded`: the call did not answer within its deadline; its job is
 *   cancelled and the call fails with `timeout`, retryable.
 */
export type RemoteCallStateName = 'disconnected' | 'reconnected' | 'lost' | 'deadline-exceeded';

/** The `data` of a `call-progress` event that reports a {@link RemoteCallStateName}. */
export interface RemoteCallState {
  /** Always `'mtpx.remote-call'`: tells these reports from a tool's own progress. */
  kind: 'mtpx.remote-call';
  state: RemoteCallStateName;
  /** The call's BullMQ job id. */
  jobId: string;
}

const kind = 'mtpx.remote-call';

/** The progress report of a state change (a `call-progress` event's `progress`). */
export function stateProgress(state: RemoteCallStateName, jobId: string): ToolProgress {
  const data: RemoteCallState = { kind, state, jobId };
  return { message: stateMessages[state], data: { ...data } };
}

const stateMessages: Record<RemoteCallStateName, string> = {
  disconnected: 'Lost the connection to Redis; the call waits for it to come back.',
  reconnected: 'The connection to Redis is back; checking the call’s job.',
  lost: 'The call’s job no longer exists in Redis (lost with its data).',
  'deadline-exceeded': 'The call did not answer within its deadline; its job is cancelled.',
};

/**
 * The remote state a `call-progress` event reports, or `undefined` for any other event
 * (a tool's own progress included).
 *
 * @example
 * ```ts source="./remote-tools.examples.ts#remoteCallStateOf"
 * const onEvent = (event: ExecutorEvent) => {
 *   const remoteState = remoteCallStateOf(event);
 *   if (remoteState) console.log(event.type, remoteState.state, remoteState.jobId);
 * };
 * ```
 */
export function remoteCallStateOf(event: ExecutorEvent): RemoteCallState | undefined {
  if (event.type !== 'call-progress') return undefined;
  const data = event.progress.data;
  if (!isJsonObject(data) || data.kind !== kind) return undefined;
  if (typeof data.state !== 'string' || !(data.state in stateMessages)) return undefined;
  if (typeof data.jobId !== 'string') return undefined;
  return { kind, state: data.state as RemoteCallStateName, jobId: data.jobId };
}
