import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { WorkerProcessSettings } from './worker-process';

const workerScript = fileURLToPath(new URL('./worker-process.ts', import.meta.url));

/** Starts `count` worker processes on the queue and resolves once each says `ready`. */
export async function startWorkerProcesses(
  count: number,
  prefix: string,
  queue: string,
  settings: WorkerProcessSettings = {},
): Promise<ChildProcess[]> {
  const children = Array.from({ length: count }, () =>
    fork(workerScript, [prefix, queue, JSON.stringify(settings)], {
      execArgv: ['--import', import.meta.resolve('tsx')],
      stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    }),
  );
  await Promise.all(
    children.map(async (child) => {
      let output = '';
      const ready = new Promise<void>((resolve) => {
        child.stdout?.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          if (output.includes('ready\n')) resolve();
        });
      });
      const exited = once(child, 'exit').then(([code]) => {
        throw new Error(`A worker process exited with ${String(code)} before it was ready.`);
      });
      await Promise.race([ready, exited]);
      exited.catch(() => {}); // later exits (the kill) are the test's business
    }),
  );
  return children;
}

/** Ends the worker processes still alive (they exit when their IPC channel closes). */
export async function stopWorkerProcesses(children: readonly ChildProcess[]): Promise<void> {
  await Promise.all(
    children.map(async (child) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.disconnect();
      await exited;
    }),
  );
}
