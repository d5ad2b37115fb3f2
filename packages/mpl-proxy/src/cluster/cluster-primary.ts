import cluster, { type Worker } from 'node:cluster';
import { isMplMessage, type WorkerToPrimary } from './cluster-messages';
import { MessageRelay } from './message-relay';

/** The environment variable that marks a process forked by {@link runClusterPrimary}. */
export const CLUSTER_WORKER_ENV = 'MPL_CLUSTER_WORKER';

/** Options of {@link runClusterPrimary}. */
export interface ClusterPrimaryOptions {
  /** How many workers to keep running. */
  workers: number;
  /** Called once, when every worker listens, with the first one's address and description. */
  onListening: (url: string, description: string) => void;
  /** Where the primary says what happened to its workers (a line of text). */
  log: (line: string) => void;
  /** How long workers may take to close after SIGTERM before they are killed (default 30 s). */
  closeTimeoutMs?: number;
}

/** Restarts allowed in {@link restartWindowMs} before the primary gives up (a crash loop). */
const maxRestarts = 10;
const restartWindowMs = 60_000;

/**
 * The primary process of `mpl serve --workers N`: forks N workers (each runs the same
 * command line and its own proxy on the same port, node:cluster handing out connections),
 * restarts a worker that dies unexpectedly, relays `GET /messages` between them, and on
 * SIGTERM / SIGINT has every worker close gracefully. Resolves with the exit code: 0 after
 * a graceful stop, 1 when a worker could not start (the others are stopped) or crashed
 * too often.
 * @internal
 */
export function runClusterPrimary(options: ClusterPrimaryOptions): Promise<number> {
  const relay = new MessageRelay();
  const live = new Set<Worker>();
  const listening = new Set<number>();
  const restarts: number[] = [];
  let announced = false;
  let stopping = false;
  let exitCode = 0;
  let killTimer: NodeJS.Timeout | undefined;

  return new Promise<number>((resolve) => {
    const finish = () => {
      if (killTimer) clearTimeout(killTimer);
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      resolve(exitCode);
    };

    function stop(): void {
      if (stopping) return;
      stopping = true;
      for (const worker of live) worker.process.kill('SIGTERM');
      if (live.size === 0) {
        finish();
        return;
      }
      killTimer = setTimeout(() => {
        options.log('mpl: workers did not close in time; killing them');
        for (const worker of live) worker.process.kill('SIGKILL');
      }, options.closeTimeoutMs ?? 30_000);
    }

    const fail = (line: string) => {
      options.log(line);
      exitCode = 1;
      stop();
    };

    const fork = () => {
      const worker = cluster.fork({ [CLUSTER_WORKER_ENV]: '1' });
      live.add(worker);
      relay.add(worker);
      worker.on('message', (message: unknown) => {
        if (!isMplMessage<WorkerToPrimary>(message)) return;
        if (message.type !== 'mpl-listening') return relay.receive(worker, message);
        listening.add(worker.id);
        if (announced) options.log(`mpl: worker ${worker.process.pid} listening`);
        else if (listening.size === options.workers) {
          announced = true;
          options.onListening(message.url, message.description);
        }
      });
      // An IPC failure to a worker that is going away must not end the primary: 'exit' follows.
      worker.on('error', (error) =>
        options.log(`mpl: worker ${worker.process.pid}: ${error.message}`),
      );
      worker.on('exit', (code, signal) => {
        live.delete(worker);
        relay.remove(worker);
        const started = listening.delete(worker.id);
        if (stopping) {
          if (code !== 0 && signal !== 'SIGTERM') exitCode = 1;
          if (live.size === 0) finish();
          return;
        }
        const how = signal ? `signal ${signal}` : `code ${code}`;
        if (!started) return fail(`mpl: a worker could not start (it exited with ${how})`);
        const now = Date.now();
        restarts.push(now);
        while ((restarts[0] ?? now) < now - restartWindowMs) restarts.shift();
        if (restarts.length > maxRestarts)
          return fail(`mpl: workers exited ${restarts.length} times in a minute; stopping`);
        options.log(`mpl: worker ${worker.process.pid} exited (${how}); starting another`);
        fork();
      });
    };

    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
    for (let index = 0; index < options.workers; index++) fork();
  });
}
