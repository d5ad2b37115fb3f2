// A tool worker of row 7, in its own process (`fork`ed by the bench through tsx):
// `worker-process.ts <prefix> <concurrency> <queue>…` runs row 1's sleep tool for each
// queue — through `startToolWorker` for MTPX's queues, as a plain BullMQ `Worker` for the
// bare peer's (`bare-…`) — says `ready` over IPC once it takes calls, and exits when the
// bench disconnects.
import { startToolWorker } from '@mtpx/bullmq';
import { Worker } from 'bullmq';
import { sleepTool } from '../rows/scheduling';
import { sleepAtLeast } from '../support/sleep';
import { redisConnection } from './redis-keys';

const [prefix = '', concurrency = '1', ...queues] = process.argv.slice(2);
const closers: Array<() => Promise<unknown>> = await Promise.all(
  queues.map(async (queue) => {
    if (queue.startsWith('bare-')) {
      // The bare peer's worker, as BullMQ's docs write one: same sleep, same concurrency.
      const worker = new Worker(
        queue,
        async (job) => {
          await sleepAtLeast(job.data.ms as number);
          return job.data.ms as number;
        },
        { connection: redisConnection, prefix, concurrency: Number(concurrency) },
      );
      await worker.waitUntilReady();
      return () => worker.close();
    }
    const worker = await startToolWorker({
      connection: redisConnection,
      prefix,
      queue,
      tools: [sleepTool],
      concurrency: Number(concurrency),
      shutdownSignals: [],
    });
    return () => worker.close();
  }),
);
process.send?.('ready');
process.on('disconnect', () => {
  Promise.allSettled(closers.map((close) => close())).then(() => process.exit(0));
});
