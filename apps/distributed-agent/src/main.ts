// distributed-agent: an agent whose tools run on worker processes. Run: pnpm --filter distributed-agent start
import { COMMON_FLAGS, colorFlag, parseFlags, runMain } from '@mtpx/example-kit';
import { type AppOptions, runApp } from './app';
import { DEFAULTS, integerFlag, redisOptionsOf } from './settings';

const HELP = `distributed-agent: an agent whose tools run on N worker processes (BullMQ on Redis)

  --workers N     start N local worker processes (default ${DEFAULTS.workers}); 0 = use the workers
                  you started yourself (pnpm --filter distributed-agent worker)
  --kill-one      kill -9 one worker while it runs a call, and watch its calls move
  --json          print the agent's events as JSON lines
  --redis URL     Redis to use (default ${DEFAULTS.redis})
  --prefix NAME   key prefix, the same as the workers' (default ${DEFAULTS.prefix})
  --latency MS    how long each pages.fetch takes on the workers it starts (default ${DEFAULTS.latencyMs})
  --stall-ms MS   a dead worker's calls move after about this long (default ${DEFAULTS.stallMs})
  --color / --no-color`;

async function main(): Promise<number> {
  const { values } = parseFlags(process.argv.slice(2), {
    options: {
      ...COMMON_FLAGS,
      workers: { type: 'string' },
      'kill-one': { type: 'boolean' },
      json: { type: 'boolean' },
      redis: { type: 'string' },
      prefix: { type: 'string' },
      latency: { type: 'string' },
      'stall-ms': { type: 'string' },
    },
  });
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  const redisUrl = values.redis ?? DEFAULTS.redis;
  const options: AppOptions = {
    redisUrl,
    connection: redisOptionsOf(redisUrl),
    prefix: values.prefix ?? DEFAULTS.prefix,
    workers: integerFlag('--workers', values.workers, DEFAULTS.workers),
    killOne: values['kill-one'] ?? false,
    json: values.json ?? false,
    latencyMs: integerFlag('--latency', values.latency, DEFAULTS.latencyMs),
    stallMs: integerFlag('--stall-ms', values['stall-ms'], DEFAULTS.stallMs),
    color: colorFlag(values),
  };
  return runApp(options, process.stdout, process.stderr);
}

runMain('distributed-agent', main);
