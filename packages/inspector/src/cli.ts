#!/usr/bin/env node
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { InspectorError } from './inspector-error';
import { DEFAULT_DATA_DIR, DEFAULT_PORT } from './links';
import { serveInspector } from './server/inspector-server';
import { replayRun } from './terminal/replay';
import { VERSION } from './version';

const HELP = `mtpx-inspector: see recorded MTPX runs

Usage:
  mtpx-inspector serve [--data DIR] [--port N] [--host 127.0.0.1] [--mpl-proxy URL | --mpl-data DIR]
  mtpx-inspector replay RUN_ID [--data DIR] [--color]
  mtpx-inspector --help | --version

  --data DIR        the folder recordRuns({ dir }) writes (default ${DEFAULT_DATA_DIR})
  --port N          the port to listen on (default ${DEFAULT_PORT}; 0 picks a free one)
  --host ADDRESS    the address to bind (default 127.0.0.1; another exposes your runs)
  --mpl-proxy URL   an MPL proxy whose provenance chains the Inspector may show
                    (its bearer token, if any, from MPL_PROXY_TOKEN)
  --mpl-data DIR    or a proxy's data folder (its provenance.db, read-only)
  --color           colour the replay (default: when stdout is a terminal)

Record runs with recordRuns() from @mtpx/inspector, or: pnpm demo -- --record DIR`;

function usage(message: string): never {
  throw new InspectorError({ code: 'invalid_option', message: `${message}\n\n${HELP}` });
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv.filter((arg) => arg !== '--'),
    allowPositionals: true,
    strict: false,
    options: {
      data: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      'mpl-proxy': { type: 'string' },
      'mpl-data': { type: 'string' },
      color: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean', short: 'v' },
    },
  });
  const known = new Set([
    'data',
    'port',
    'host',
    'mpl-proxy',
    'mpl-data',
    'color',
    'help',
    'version',
    'h',
    'v',
  ]);
  for (const key of Object.keys(values)) if (!known.has(key)) usage(`Unknown option --${key}.`);
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  if (values.version) {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  // Under `pnpm`, a relative folder means the caller's (INIT_CWD), not the script's.
  const dataDir = resolve(
    process.env.INIT_CWD ?? process.cwd(),
    typeof values.data === 'string' ? values.data : DEFAULT_DATA_DIR,
  );
  const [command, ...rest] = positionals;
  if (command === 'serve') {
    if (rest.length > 0) usage(`serve takes no arguments, got ${rest.join(' ')}.`);
    const port = values.port === undefined ? DEFAULT_PORT : Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65_535)
      usage(`--port must be 0–65535, not ${String(values.port)}.`);
    const host = typeof values.host === 'string' ? values.host : '127.0.0.1';
    const proxy = values['mpl-proxy'];
    const proxyData = values['mpl-data'];
    if (proxy !== undefined && proxyData !== undefined)
      usage('Pass --mpl-proxy or --mpl-data, not both.');
    const base = process.env.INIT_CWD ?? process.cwd();
    const inspector = await serveInspector({
      dataDir,
      port,
      host,
      ...(typeof proxy === 'string'
        ? {
            mplProxy: {
              url: proxy,
              ...(process.env.MPL_PROXY_TOKEN ? { token: process.env.MPL_PROXY_TOKEN } : {}),
            },
          }
        : {}),
      ...(typeof proxyData === 'string' ? { mplProxy: { dataDir: resolve(base, proxyData) } } : {}),
    });
    process.stdout.write(`MTPX Inspector on ${inspector.url}  (runs from ${dataDir})\n`);
    const stop = () => void inspector.close().then(() => process.exit(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    return await new Promise<number>(() => {});
  }
  if (command === 'replay') {
    const [runId, ...extra] = rest;
    if (runId === undefined || extra.length > 0) usage('replay takes one RUN_ID.');
    await replayRun(dataDir, runId, process.stdout, {
      color: typeof values.color === 'boolean' ? values.color : process.stdout.isTTY === true,
      chartWidth: Math.max(24, Math.min(60, (process.stdout.columns ?? 120) - 70)),
    });
    return 0;
  }
  usage(command === undefined ? 'Name a command: serve or replay.' : `Unknown command ${command}.`);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`mtpx-inspector: ${message}\n`);
    process.exitCode = InspectorError.isInstance(error) && error.code === 'invalid_option' ? 2 : 1;
  },
);
