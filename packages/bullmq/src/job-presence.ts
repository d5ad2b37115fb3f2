import { Job, type Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { ResolvedLocation } from './queue-names';

/** What one look at the waited-for jobs in Redis found. */
export interface JobPresence {
  /** Jobs whose hash is gone: lost with Redis's data (nothing else removes a job still waited for). */
  missing: string[];
  /** Jobs that are finished in Redis (their answer may have been missed across a reconnection). */
  finished: string[];
}

/**
 * Looks at each job's hash (`<prefix>:<queue>:<job id>`, as BullMQ keeps it) in one
 * pipeline: one `HMGET timestamp finishedOn` per job, so a thousand waiting calls cost
 * one round trip.
 */
export async function jobPresence(
  client: Redis,
  jobKey: (jobId: string) => string,
  jobIds: readonly string[],
): Promise<JobPresence> {
  const presence: JobPresence = { missing: [], finished: [] };
  if (jobIds.length === 0) return presence;
  const pipeline = client.pipeline();
  for (const jobId of jobIds) pipeline.hmget(jobKey(jobId), 'timestamp', 'finishedOn');
  const replies = (await pipeline.exec()) ?? [];
  for (const [index, reply] of replies.entries()) {
    const [error, fields] = reply as [Error | null, (string | null)[] | null];
    if (error !== null || fields === null) throw error ?? new Error('no reply from Redis');
    const jobId = jobIds[index] as string;
    if (fields[0] === null) presence.missing.push(jobId);
    else if (fields[1] !== null) presence.finished.push(jobId);
  }
  return presence;
}

/**
 * Cancels a job: marks it cancelled (a worker that picks it up later skips it), removes it
 * if it is still waiting, and otherwise tells the workers to abort it. A cancelled call is
 * not an answered one: dispatching it again (a resumed run) runs it afresh.
 */
export async function cancelJob(
  where: { queue: Queue; client: Redis; location: ResolvedLocation; jobId: string },
  keepSeconds: number,
): Promise<void> {
  const { queue, client, location, jobId } = where;
  const job = await Job.fromId(queue, jobId);
  if (job === undefined) return;
  // The mark names the job's creation time: a later job with the same id is not cancelled.
  await client.set(location.cancelledKey(jobId), String(job.timestamp), 'EX', keepSeconds);
  const removed = await queue.remove(jobId).catch(() => 0);
  if (removed !== 1) await client.publish(location.cancelChannel, jobId);
}
