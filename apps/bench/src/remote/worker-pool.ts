import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('./worker-process.ts', import.meta.url));

/**
 * Row 7's worker processes: process `i` serves the queues (MTPX's and the bare peer's) of
 * every worker count above `i`, so the queues of count `n` are served by exactly `n`
 * processes, all started once.
 */
export class WorkerPool {
  readonly #children: ChildProcess[];

  private constructor(children: ChildProcess[]) {
    this.#children = children;
  }

  /** Starts `max(counts)` processes and waits until every one takes calls. */
  static async start(
    prefix: string,
    counts: readonly number[],
    concurrency: number,
    queuesOf: (count: number) => readonly string[],
  ): Promise<WorkerPool> {
    const size = Math.max(...counts);
    const children = Array.from({ length: size }, (_, index) => {
      const queues = counts.filter((count) => count > index).flatMap(queuesOf);
      return fork(script, [prefix, String(concurrency), ...queues], {
        execArgv: ['--import', import.meta.resolve('tsx')],
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
    });
    const pool = new WorkerPool(children);
    try {
      await Promise.all(
        children.map(
          (child) =>
            new Promise<void>((resolve, reject) => {
              child.once('message', () => resolve());
              child.once('exit', (code) =>
                reject(
                  new Error(`a row 7 worker process exited (code ${code}) before it was ready`),
                ),
              );
            }),
        ),
      );
    } catch (error) {
      await pool.stop();
      throw error;
    }
    return pool;
  }

  /** Disconnects every process and waits for it to exit. */
  async stop(): Promise<void> {
    await Promise.all(
      this.#children.map(async (child) => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = once(child, 'exit');
        if (child.connected) child.disconnect();
        else child.kill();
        await exited;
      }),
    );
  }
}
