// A tool worker of row 7, in its own process (`fork`ed by the bench through tsx):
// `worker-process.ts <prefix> <concurrency> <queue>…` runs row 1's sleep tool for each
// queue, says `ready` over IPC once it takes calls, and exits when the bench disconnects.
import { startToolWorker, type ToolWorker } from '@mtpx/bullmq';
import { sleepTool } from '../rows/scheduling';
import { redisConnection } from './redis-keys';

const [prefix = '', concurrency = '1', ...queues] = process.argv.slice(2);
const workers: ToolWorker[] = await Promise.all(
  queues.map((queue) =>
    startToolWorker({
      connection: redisConnection,
      prefix,
      queue,
      tools: [sleepTool],
      concurrency: Number(concurrency),
    }),
  ),
);
process.send?.('ready');
process.on('disconnect', () => {
  Promise.allSettled(workers.map((worker) => worker.close())).then(() => process.exit(0));
});
