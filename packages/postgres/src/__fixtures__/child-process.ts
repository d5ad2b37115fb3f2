import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

/** A TypeScript script under `__fixtures__`, running in its own Node process. */
export interface ChildScript {
  child: ChildProcess;
  /** Resolves with the first line of standard output that matches (rejects if it exits first). */
  line(pattern: RegExp): Promise<RegExpExecArray>;
  /** Every line printed so far. */
  readonly lines: readonly string[];
  /** Writes one line to its standard input. */
  send(line: string): void;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

/** Starts `node --import tsx __fixtures__/<script> …args`. */
export function startScript(script: string, args: string[]): ChildScript {
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, script), ...args], {
    cwd: join(import.meta.dirname, '../..'),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const waiters: Array<{ pattern: RegExp; resolve: (match: RegExpExecArray) => void }> = [];
  let stderr = '';
  let buffered = '';
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  child.stdout?.on('data', (chunk) => {
    buffered += chunk;
    const parts = buffered.split('\n');
    buffered = parts.pop() ?? '';
    for (const line of parts) {
      lines.push(line);
      for (const waiter of [...waiters]) {
        const match = waiter.pattern.exec(line);
        if (match) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(match);
        }
      }
    }
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>(
    (resolve) => child.once('exit', (code, signal) => resolve({ code, signal, stderr })),
  );
  return {
    child,
    lines,
    line: (pattern) =>
      new Promise((resolve, reject) => {
        for (const line of lines) {
          const match = pattern.exec(line);
          if (match) return resolve(match);
        }
        waiters.push({ pattern, resolve });
        exited.then(({ code, signal }) =>
          reject(
            new Error(
              `${script} exited (${code ?? signal}) before printing ${pattern}; it printed:\n${lines.join('\n')}\n${stderr}`,
            ),
          ),
        );
      }),
    send: (line) => {
      child.stdin?.write(`${line}\n`);
    },
    exited,
  };
}

/** Resolves with each line read from standard input, one at a time (for child scripts). */
export function stdinLines(): () => Promise<string> {
  const queue: string[] = [];
  const waiting: Array<(line: string) => void> = [];
  let buffered = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk: string) => {
    buffered += chunk;
    const parts = buffered.split('\n');
    buffered = parts.pop() ?? '';
    for (const line of parts) {
      const next = waiting.shift();
      if (next) next(line);
      else queue.push(line);
    }
  });
  return () => {
    const line = queue.shift();
    if (line !== undefined) return Promise.resolve(line);
    return new Promise((resolve) => waiting.push(resolve));
  };
}
