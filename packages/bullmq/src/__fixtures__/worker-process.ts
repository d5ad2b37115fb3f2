// A tool worker in its own process, for the crash tests: `node --import tsx worker-process.ts
// <prefix> <queue>`. It says `ready` on stdout once it takes calls, and runs until killed.
import { Redis } from 'ioredis';
import { startToolWorker } from '../tool-worker';
import { effectTool } from './dag-tools';
import { redisOptions } from './test-redis';

const [prefix = '', queue = ''] = process.argv.slice(2);
const redis = new Redis(redisOptions);
await startToolWorker({
  connection: redisOptions,
  prefix,
  queue,
  tools: [effectTool(redis, prefix)],
  concurrency: 4,
  stallTimeoutMs: 1_000,
  onError: () => {}, // a lost lock after a stall is expected here
});
process.stdout.write('ready\n');
process.on('disconnect', () => process.exit(0));
