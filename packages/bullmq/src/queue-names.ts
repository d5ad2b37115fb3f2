import type { ConnectionOptions } from 'bullmq';
import { Redis, type RedisOptions } from 'ioredis';
import { RemoteToolError } from './errors';

/** How to reach Redis: ioredis options (`{ host, port }`) or an ioredis client to share. */
export type RedisConnection = RedisOptions | Redis;

/** Where calls travel: one BullMQ queue under one key prefix. */
export interface QueueLocation {
  /** Redis connection: ioredis options or a client. */
  connection: RedisConnection;
  /** The BullMQ queue's name. Default `mtpx-tools`. */
  queue?: string;
  /** The Redis key prefix of the queue and of this package's own keys. Default `mtpx`. */
  prefix?: string;
}

/** The names one queue location uses in Redis. */
export interface ResolvedLocation {
  readonly connection: RedisConnection;
  readonly queue: string;
  readonly prefix: string;
  /** The pub/sub channel on which cancellations of running calls are announced. */
  readonly cancelChannel: string;
  /** The key that marks a job cancelled (so a worker that picks it up later skips it). */
  cancelledKey(jobId: string): string;
}

/** Fills in the defaults and checks the names (BullMQ refuses `:` in a queue name). */
export function resolveLocation(location: QueueLocation): ResolvedLocation {
  if (typeof location?.connection !== 'object' || location.connection === null) {
    throw invalid('`connection` must be ioredis options or an ioredis client.');
  }
  const queue = location.queue ?? 'mtpx-tools';
  const prefix = location.prefix ?? 'mtpx';
  if (typeof queue !== 'string' || queue === '' || queue.includes(':')) {
    throw invalid(`\`queue\` must be a non-empty name without ":", got ${JSON.stringify(queue)}.`);
  }
  if (typeof prefix !== 'string' || prefix === '') {
    throw invalid(`\`prefix\` must be a non-empty string, got ${JSON.stringify(prefix)}.`);
  }
  const base = `${prefix}:${queue}`;
  return {
    connection: location.connection,
    queue,
    prefix,
    cancelChannel: `${base}:mtpx-cancel`,
    cancelledKey: (jobId) => `${base}:mtpx-cancelled:${jobId}`,
  };
}

/** A client of its own (for pub/sub or plain commands) on the same Redis. */
export function ownClient(connection: RedisConnection): Redis {
  if (typeof (connection as Redis).duplicate === 'function')
    return (connection as Redis).duplicate();
  return new Redis({ ...(connection as RedisOptions), maxRetriesPerRequest: null });
}

/** An `invalid_option` error. */
export function invalid(message: string): RemoteToolError {
  return new RemoteToolError({ code: 'invalid_option', message });
}

/** The connection as BullMQ's classes take it (ioredis options and clients are both accepted). */
export function bullConnection(location: ResolvedLocation): ConnectionOptions {
  return location.connection as ConnectionOptions;
}

/**
 * Closes connections gracefully (`quit`, BullMQ's `close`), or — Redis unreachable, when a
 * graceful close never ends — drops them after `waitMs`.
 */
export async function closeOrDrop(
  made: ReadonlyArray<Redis | { close(): Promise<void>; disconnect(): Promise<void> | void }>,
  waitMs: number,
): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const gaveUp = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, waitMs);
  });
  const graceful = made.map((each) => ('quit' in each ? each.quit() : each.close()));
  await Promise.race([Promise.allSettled(graceful), gaveUp]);
  clearTimeout(timer);
  for (const each of made) Promise.resolve(each.disconnect()).catch(() => {});
}
