// distributed-agent worker: runs the app's tools for any orchestrator on the same queue.
// Start as many as you like: pnpm --filter distributed-agent worker
import { startToolWorker } from '@mtpx/bullmq';
import { parseFlags, runMain } from '@mtpx/example-kit';
import { Redis } from 'ioredis';
import { DEFAULTS, integerFlag, redisOptionsOf } from './settings';
import { appTools } from './tools';

const HELP = `distributed-agent worker: runs the app's tools (pages.fetch, pages.total, ledger.record)

  --redis URL         Redis to use (default ${DEFAULTS.redis})
  --prefix NAME       key prefix, the same as the orchestrator's (default ${DEFAULTS.prefix})
  --concurrency N     calls this process runs at once (default ${DEFAULTS.concurrency})
  --latency MS        how long each pages.fetch takes (default ${DEFAULTS.latencyMs})
  --stall-ms MS       a dead worker's calls move after about this long (default ${DEFAULTS.stallMs})`;

async function main(): Promise<number> {
  const { values } = parseFlags(process.argv.slice(2), {
    options: {
      redis: { type: 'string' },
      prefix: { type: 'string' },
      concurrency: { type: 'string' },
      latency: { type: 'string' },
      'stall-ms': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  const connection = redisOptionsOf(values.redis ?? DEFAULTS.redis);
  const location = { prefix: values.prefix ?? DEFAULTS.prefix, queue: DEFAULTS.queue };
  const latencyMs = integerFlag('--latency', values.latency, DEFAULTS.latencyMs);
  const redis = new Redis(connection);
  const worker = await startToolWorker({
    connection,
    ...location,
    tools: appTools(redis, location, latencyMs),
    concurrency: integerFlag('--concurrency', values.concurrency, DEFAULTS.concurrency),
    stallTimeoutMs: integerFlag('--stall-ms', values['stall-ms'], DEFAULTS.stallMs),
    onError: () => {}, // a lost lock after a stall is expected in this demo
  });
  const say = (line: string) => process.stdout.write(`worker ${process.pid} ${line}\n`);
  worker.worker.on('active', (job) => say(`runs ${job.data.callId} ${job.data.tool}`));
  worker.worker.on('completed', (job) => say(`done ${job.data.callId}`));
  say(`ready on ${location.prefix}:${location.queue}`);
  await new Promise<void>((resolve) => {
    process.once('SIGTERM', resolve);
    process.once('SIGINT', resolve);
    process.once('disconnect', resolve);
  });
  await worker.close();
  await redis.quit();
  return 0;
}

runMain('distributed-agent worker', main);
