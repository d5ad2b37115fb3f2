import { type ChildProcess, spawn } from 'node:child_process';
import { connect } from 'node:net';
import type { HostileRequest } from './hostile-corpus';

/** What came back on one raw connection: the status of each answer, and every byte. */
export interface RawOutcome {
  statuses: number[];
  text: string;
}

/**
 * Sends `bytes` on a new connection to 127.0.0.1:`port` and reads until the server closes
 * it (half-closing first when `halfClose`). Never sends anything else.
 */
export function exchangeRaw(
  port: number,
  bytes: Buffer,
  options: { halfClose?: boolean } = {},
): Promise<RawOutcome> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(bytes);
      if (options.halfClose) socket.end();
    });
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // A reset after the answer is a close; a refused connection is a dead server.
      if (error.code === 'ECONNREFUSED') reject(error);
    });
    socket.once('close', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const statuses = [...text.matchAll(/HTTP\/1\.[01] (\d{3}) /g)].map((match) =>
        Number(match[1]),
      );
      resolve({ statuses, text });
    });
  });
}

/**
 * The problems with the outcome of `request`: a 5xx, a last answer that is not a 4xx, or
 * no answer where one is due. Empty when the server answered as it must.
 */
export function outcomeProblems(request: HostileRequest, outcome: RawOutcome): string[] {
  const problems: string[] = [];
  const shown = outcome.text.slice(0, 300);
  for (const status of outcome.statuses)
    if (status >= 500) problems.push(`${request.name}: answered ${status}: ${shown}`);
  const last = outcome.statuses.at(-1);
  if (last === undefined) {
    if (!request.closeAllowed && !request.halfClose)
      problems.push(`${request.name}: closed without an answer`);
  } else if ((last < 400 && !request.successAllowed) || last >= 500)
    problems.push(`${request.name}: last answer ${last}, not a 4xx: ${shown}`);
  return problems;
}

/** A server in a child process, and the port it printed. */
export interface ServerProcess {
  child: ChildProcess;
  port: number;
  /** Everything it wrote to stdout and stderr. */
  output(): string;
  /** True while the process runs. */
  alive(): boolean;
  /** Ends it (SIGTERM, then SIGKILL) and resolves once it is gone. */
  stop(): Promise<void>;
}

/**
 * Starts `node args…` and resolves once its output matches `listening` (whose first group
 * is the port).
 */
export function startServerProcess(
  args: readonly string[],
  listening: RegExp,
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<ServerProcess> {
  const child = spawn(process.execPath, [...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
  });
  let output = '';
  let exited = false;
  const gone = new Promise<void>((resolve) =>
    child.once('exit', () => {
      exited = true;
      resolve();
    }),
  );
  return new Promise((resolve, reject) => {
    const onOutput = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const match = listening.exec(output);
      if (match?.[1] === undefined) return;
      child.stdout?.off('data', onOutput);
      child.stderr?.off('data', onOutput);
      child.stdout?.on('data', (more: Buffer) => {
        output += more.toString('utf8');
      });
      child.stderr?.on('data', (more: Buffer) => {
        output += more.toString('utf8');
      });
      resolve({
        child,
        port: Number(match[1]),
        output: () => output,
        alive: () => !exited && child.exitCode === null && child.signalCode === null,
        async stop() {
          if (exited) return;
          child.kill('SIGTERM');
          const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
          await gone;
          clearTimeout(killer);
        },
      });
    };
    child.stdout?.on('data', onOutput);
    child.stderr?.on('data', onOutput);
    void gone.then(() => reject(new Error(`The server exited before listening:\n${output}`)));
  });
}
