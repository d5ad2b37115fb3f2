// A tool worker in its own process, for the crash, Redis-kill and shutdown tests:
// `node --import tsx worker-process.ts <prefix> <queue> [settings JSON]`. It says `ready` on
// stdout once it takes calls, and runs until killed (or, with `shutdownDeadlineMs`, until
// SIGTERM closes it gracefully).
import { Redis } from 'ioredis';
import { startToolWorker } from '../tool-worker';
import { effectTool } from './dag-tools';
import { redisOptions } from './test-redis';

/** What the test can set for one worker process. */
export interface WorkerProcessSettings {
  /** The port of the Redis holding the queue (default: the machine's, 6379). Effects stay on 6379. */
  queuePort?: number;
  /** Given: SIGTERM closes the worker with this deadline. Absent: no signal handler. */
  shutdownDeadlineMs?: number;
  concurrency?: number;
}

/**
 * How long a call's lock lives without renewal. Short enough that a killed worker's calls are
 * taken up again within a test, long enough that a worker starved of CPU beside a second test
 * suite still renews its locks in time (1 s was not: a call ran twice, with no crash at all).
 */
const stallTimeoutMs = 5_000;

const [prefix = '', queue = '', json = '{}'] = process.argv.slice(2);
const settings = JSON.parse(json) as WorkerProcessSettings;
const redis = new Redis(redisOptions);
const worker = await startToolWorker({
  connection: { ...redisOptions, port: settings.queuePort ?? redisOptions.port },
  prefix,
  queue,
  tools: [effectTool(redis, prefix)],
  concurrency: settings.concurrency ?? 4,
  stallTimeoutMs,
  onError: () => {}, // a lost lock after a stall, a Redis restart: expected here
  ...(settings.shutdownDeadlineMs === undefined
    ? { shutdownSignals: [] }
    : { shutdownDeadlineMs: settings.shutdownDeadlineMs, shutdownSignals: ['SIGTERM'] }),
});
process.stdout.write('ready\n');
process.on('disconnect', () => process.exit(0));
// Closed by a signal: report what it did before the signal ends the process.
if (settings.shutdownDeadlineMs !== undefined) {
  process.on('SIGTERM', () => {
    // Joins the close the worker's own handler began on this signal.
    void worker.close().then(async (closed) => {
      process.stdout.write(`closed ${JSON.stringify(closed)}\n`);
      await redis.quit();
      process.exit(0);
    });
  });
}
