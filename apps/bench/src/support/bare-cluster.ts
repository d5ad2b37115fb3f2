import { type ChildProcess, fork } from 'node:child_process';
import cluster from 'node:cluster';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { type BareServer, startBareServer } from './bare-server';

/** Set in the process tree {@link startBareCluster} starts: this file then runs as it. */
const answerEnv = 'MTPX_BARE_CLUSTER_ANSWER';
const workersEnv = 'MTPX_BARE_CLUSTER_WORKERS';

/**
 * The fair peer of `mpl serve --workers N` in row 5: the bare `node:http` server of
 * {@link startBareServer} (same answer text) in N `node:cluster` workers on one port, under
 * a primary process of its own, as `mpl serve` runs them.
 */
export async function startBareCluster(json: string, workers: number): Promise<BareServer> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), [], {
    execArgv: ['--import', import.meta.resolve('tsx')],
    env: { ...process.env, [answerEnv]: json, [workersEnv]: String(workers) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = once(child, 'exit');
  const listening = once(child, 'message') as Promise<[{ url: string }]>;
  const [message] = await Promise.race([
    listening,
    exited.then(([code]) => {
      throw new Error(`the bare cluster exited (${String(code)}) before listening`);
    }),
  ]);
  return {
    url: message.url,
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The primary: forks the workers, reports the address once all listen, stops them on SIGTERM. */
function runPrimary(workers: number): void {
  let listening = 0;
  const stop = () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGKILL');
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  // The bench went away: so does the cluster.
  process.on('disconnect', stop);
  for (let index = 0; index < workers; index++) {
    const worker = cluster.fork();
    worker.on('message', (message: { url: string }) => {
      listening += 1;
      if (listening === workers) process.send?.({ url: message.url });
    });
    worker.on('exit', (code, signal) => {
      process.stderr.write(`bare cluster: a worker exited (${signal ?? code})\n`);
      stop();
    });
  }
}

const answer = process.env[answerEnv];
if (answer !== undefined) {
  if (cluster.isPrimary) runPrimary(Number(process.env[workersEnv]));
  else {
    const server = await startBareServer(answer);
    process.send?.({ url: server.url });
  }
}
