import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { join } from 'node:path';

/** The built `mpl` bin (the vitest global setup builds it). */
export const cliPath = join(import.meta.dirname, '../../dist/cli.js');

/** Runs `mpl …` to completion. */
export function runCli(
  args: string[],
  options: { input?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [cliPath, ...args],
      { env: { ...process.env, ...options.env } },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
    child.stdin?.end(options.input ?? '');
  });
}

/** A running `mpl serve`. */
export interface ServeProcess {
  child: ChildProcess;
  url: string;
  /** Resolves with the exit code (or signal) once the process has ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `mpl serve …` and resolves once it prints the address it listens on. */
export function startServe(args: string[]): Promise<ServeProcess> {
  const child = spawn(process.execPath, [cliPath, 'serve', '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return new Promise((resolve, reject) => {
    let output = '';
    let errors = '';
    child.stderr?.on('data', (chunk) => {
      errors += chunk;
    });
    child.stdout?.on('data', (chunk) => {
      output += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match?.[1]) resolve({ child, url: match[1], exited });
    });
    exited.then(({ code }) => reject(new Error(`mpl serve exited (${code}) before listening: ${errors}`)));
  });
}

/** A response's JSON body, loosely typed for assertions. */
// biome-ignore lint/suspicious/noExplicitAny: tests assert on the shape with toMatchObject.
export function readJson(response: Response): Promise<any> {
  return response.json();
}
