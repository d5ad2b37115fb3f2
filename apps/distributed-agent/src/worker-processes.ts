import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const workerScript = fileURLToPath(new URL('./worker.ts', import.meta.url));

/**
 * Starts `count` worker processes (`tsx src/worker.ts …flags`), hands each stdout line to
 * `onLine`, and resolves once each says it is ready.
 */
export async function spawnWorkers(
  count: number,
  flags: readonly string[],
  onLine: (line: string) => void,
): Promise<ChildProcess[]> {
  const children = Array.from({ length: count }, () =>
    fork(workerScript, [...flags], {
      execArgv: ['--import', import.meta.resolve('tsx')],
      stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    }),
  );
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve, reject) => {
          let buffered = '';
          child.stdout?.on('data', (chunk: Buffer) => {
            buffered += chunk.toString();
            for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
              const line = buffered.slice(0, end);
              buffered = buffered.slice(end + 1);
              onLine(line);
              if (line.includes(' ready on ')) resolve();
            }
          });
          child.once('exit', (code) =>
            reject(new Error(`a worker process exited (${String(code)}) before it was ready`)),
          );
        }),
    ),
  );
  return children;
}

/** Ends the worker processes still alive: each closes its worker when its IPC channel closes. */
export async function stopWorkers(children: readonly ChildProcess[]): Promise<void> {
  await Promise.all(
    children.map(async (child) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.disconnect();
      await exited;
    }),
  );
}
