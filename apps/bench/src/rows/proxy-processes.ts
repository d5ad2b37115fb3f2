import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import pg from 'pg';

/**
 * The PostgreSQL row 5 puts its `mpl serve` processes on: `MTPX_BENCH_POSTGRES_URL`, or the
 * database every machine of the project runs (127.0.0.1:5432, database `test`).
 */
export const benchPostgresUrl =
  process.env.MTPX_BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A running `mpl serve` child process. */
export interface ServeProcess {
  url: string;
  stop(): Promise<void>;
}

/** The built `mpl` bin of `@mtpx/mpl-proxy` (`pnpm bench` builds it first). */
function mplBin(): string {
  const manifest = createRequire(import.meta.url).resolve('@mtpx/mpl-proxy/package.json');
  return join(dirname(manifest), 'dist', 'cli.js');
}

/** Starts `mpl serve --port 0 …args` and resolves once it prints the address it listens on. */
export function startServe(args: readonly string[]): Promise<ServeProcess> {
  const child: ChildProcess = spawn(process.execPath, [mplBin(), 'serve', '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = once(child, 'exit');
  let printed: string | undefined = '';
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    if (errors.length < 10_000) errors += chunk;
  });
  return new Promise((resolve, reject) => {
    const onExit = ([code]: unknown[]) =>
      reject(new Error(`mpl serve exited (${String(code)}) before listening: ${errors}`));
    void exited.then(onExit, () => {});
    child.stdout?.on('data', (chunk: Buffer) => {
      if (printed === undefined) return;
      printed += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(printed);
      if (!match?.[1]) return;
      printed = undefined;
      resolve({
        url: match[1],
        async stop() {
          if (child.exitCode !== null || child.signalCode !== null) return;
          child.kill('SIGTERM');
          await exited.catch(() => {});
        },
      });
    });
  });
}

/**
 * A schema of our own in the bench's PostgreSQL, for the `mpl serve` processes of row 5:
 * `location` is the `--provenance` URL naming it; `drop` removes it and everything in it.
 */
export async function benchSchema(): Promise<{ location: string; drop(): Promise<void> }> {
  const schema = `mtpx_bench_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  const client = new pg.Client({ connectionString: benchPostgresUrl });
  try {
    await client.connect();
  } catch (cause) {
    throw new Error(
      `row 5 puts two mpl serve processes on PostgreSQL at ${benchPostgresUrl} (MTPX_BENCH_POSTGRES_URL), which is not reachable`,
      { cause },
    );
  }
  await client.end();
  const url = new URL(benchPostgresUrl);
  url.searchParams.set('schema', schema);
  return {
    location: url.toString(),
    async drop() {
      const dropping = new pg.Client({ connectionString: benchPostgresUrl });
      await dropping.connect();
      try {
        await dropping.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      } finally {
        await dropping.end();
      }
    },
  };
}
