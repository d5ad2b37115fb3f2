import type { DeliveredMessage } from '@mtpx/mpl';

// The IPC messages between the primary of `mpl serve --workers N` and its workers. Every
// type starts with `mpl-` so they never mistake node:cluster's own messages for theirs.

/** What a worker tells the primary. @internal */
export type WorkerToPrimary =
  /** The worker's proxy listens; `description` is its startup line's parenthesis. */
  | { type: 'mpl-listening'; url: string; description: string }
  /**
   * The worker's `GET /messages` subscribers changed to `count` (the first one is its hub's
   * hello). With `sync`, the primary answers `mpl-hub-ready` once every other worker knows
   * it must relay.
   */
  | { type: 'mpl-hub-subscribers'; count: number; sync?: number }
  /** An accepted message, for the subscribers of the other workers. */
  | { type: 'mpl-hub-message'; message: DeliveredMessage }
  /** The worker has applied the `mpl-hub-remote` with this `sync`. */
  | { type: 'mpl-hub-synced'; sync: number };

/** What the primary tells a worker. @internal */
export type PrimaryToWorker =
  /** How many subscribers the other workers have (relay messages while it is above 0). */
  | { type: 'mpl-hub-remote'; count: number; sync?: number }
  /** Every worker relays now: the subscription `sync` may start. */
  | { type: 'mpl-hub-ready'; sync: number }
  /** A message another worker accepted, for this worker's subscribers. */
  | { type: 'mpl-hub-relay'; message: DeliveredMessage };

/** Whether an IPC message is one of ours. @internal */
export function isMplMessage<T extends { type: string }>(message: unknown): message is T {
  return (
    typeof message === 'object' &&
    message !== null &&
    typeof (message as { type?: unknown }).type === 'string' &&
    (message as { type: string }).type.startsWith('mpl-')
  );
}
