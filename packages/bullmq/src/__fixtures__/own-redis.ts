import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';

/**
 * A Redis server of the test's own, on a free port, without persistence (`--save ''
 * --appendonly no`), so it can be kill -9'd and restarted empty. Never the machine's shared
 * Redis.
 */
export class OwnRedis {
  readonly port: number;
  #child: ChildProcess | undefined;

  private constructor(port: number) {
    this.port = port;
  }

  /** Starts `redis-server` on a free port and resolves once it accepts connections. */
  static async start(): Promise<OwnRedis> {
    const redis = new OwnRedis(await freePort());
    await redis.#spawn();
    return redis;
  }

  /** kill -9, then waits until the process is gone (its data goes with it). */
  async kill(): Promise<void> {
    const child = this.#child;
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  }

  /** Starts it again on the same port, empty. */
  restart(): Promise<void> {
    return this.#spawn();
  }

  /** Stops it for good. */
  stop(): Promise<void> {
    return this.kill();
  }

  async #spawn(): Promise<void> {
    const args = ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
    const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'inherit'] });
    this.#child = child;
    let output = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ready to accept connections')) resolve();
      });
      child.once('exit', (code) =>
        reject(new Error(`redis-server on port ${this.port} exited (${code}): ${output}`)),
      );
    });
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  await once(server, 'close');
  if (address === null || typeof address === 'string') throw new Error('no free port');
  return address.port;
}
