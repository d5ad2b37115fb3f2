import { type ChildProcess, spawn } from 'node:child_process';

/** How a run of an app ended, and everything it printed. */
export interface AppRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** What a spawned app gets besides its flags. */
export interface AppProcessOptions {
  /** Added to this process's environment (without the colour switches vitest sets). */
  env?: NodeJS.ProcessEnv;
  /** Written to its stdin, which is then closed; without it, stdin is `/dev/null`. */
  input?: string;
}

/** This process's environment without the colour switches vitest sets. */
export function inheritedEnv(): NodeJS.ProcessEnv {
  const { NO_COLOR: _noColor, FORCE_COLOR: _forceColor, ...rest } = process.env;
  return rest;
}

/**
 * Starts `<script> …args` in `appDirectory` with the Node running the tests and the app's
 * own `tsx` as its loader (`node --import tsx`): the app's code as its `start` script runs
 * it, without the process the `tsx` command puts in front (a third of a second of CPU per
 * start; the commands a user types, `pnpm demo` and the apps' `start`, are run as typed by
 * CI's newcomer step). stdout and stderr are pipes.
 */
export function spawnAppProcess(
  appDirectory: string,
  script: string,
  args: readonly string[],
  options: AppProcessOptions = {},
): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: appDirectory,
    env: { ...inheritedEnv(), ...options.env },
    stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  if (options.input !== undefined) child.stdin?.end(options.input);
  return child;
}

/** Runs `<script> …args` in `appDirectory` (see {@link spawnAppProcess}) and waits for it to exit. */
export function runAppProcess(
  appDirectory: string,
  script: string,
  args: readonly string[],
  options: AppProcessOptions = {},
): Promise<AppRun> {
  return new Promise((resolve, reject) => {
    const child = spawnAppProcess(appDirectory, script, args, options);
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
