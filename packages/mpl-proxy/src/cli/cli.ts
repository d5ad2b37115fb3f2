#!/usr/bin/env node
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import {
  canonicalize,
  type HashAlgorithm,
  MplEngine,
  MplError,
  MplPolicy,
  STypeRegistry,
  verifyChain,
} from '@mtpx/mpl';
import { hashCanonical } from '@mtpx/mpl/internal';
import { runClusterPrimary } from '../cluster/cluster-primary';
import {
  announceListening,
  clusterMessageHub,
  isClusterWorker,
  leaveCluster,
} from '../cluster/cluster-worker';
import {
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_PORT,
  defaultDataDir,
  type ProxyOptions,
} from '../proxy-options';
import { startProxy } from '../server';
import {
  describePostgresUrl,
  isPostgresUrl,
  openPostgresProvenanceStore,
} from '../store/postgres-provenance';
import { SqliteProvenanceStore } from '../store/sqlite-provenance-store';
import { VERSION } from '../version';
import {
  commaList,
  integer,
  oneOf,
  type ParsedArguments,
  parse,
  readJsonFile,
  strings,
  UsageError,
} from './cli-arguments';
import { HELP } from './cli-help';

const out = (text: string) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);

/** The HTTP hardening options of `mpl serve` (hosts, origins, timeouts). */
function hardeningOptions(values: ParsedArguments['values']): Partial<ProxyOptions> {
  const options: Partial<ProxyOptions> = {};
  const hosts = commaList(values['allowed-hosts']);
  const origins = commaList(values['allowed-origins']);
  const headersTimeoutMs = integer(values['headers-timeout'], '--headers-timeout');
  const requestTimeoutMs = integer(values['request-timeout'], '--request-timeout');
  const idleTimeoutMs = integer(values['idle-timeout'], '--idle-timeout');
  if (hosts) options.allowedHosts = hosts;
  if (origins) options.allowedOrigins = origins;
  if (headersTimeoutMs !== undefined) options.headersTimeoutMs = headersTimeoutMs;
  if (requestTimeoutMs !== undefined) options.requestTimeoutMs = requestTimeoutMs;
  if (idleTimeoutMs !== undefined) options.idleTimeoutMs = idleTimeoutMs;
  const httpLayer = oneOf(values['http-layer'], ['node', 'fast'] as const, '--http-layer');
  if (httpLayer !== undefined) options.httpLayer = httpLayer;
  return options;
}

async function serve(argv: string[]): Promise<number> {
  const { values } = parse(argv, {
    port: { type: 'string' },
    host: { type: 'string' },
    data: { type: 'string' },
    provenance: { type: 'string' },
    stypes: { type: 'string', multiple: true },
    mode: { type: 'string' },
    upstream: { type: 'string' },
    token: { type: 'string' },
    'max-body': { type: 'string' },
    hash: { type: 'string' },
    profile: { type: 'string' },
    'allowed-hosts': { type: 'string' },
    'allowed-origins': { type: 'string' },
    'headers-timeout': { type: 'string' },
    'request-timeout': { type: 'string' },
    'idle-timeout': { type: 'string' },
    'http-layer': { type: 'string' },
    policy: { type: 'string' },
    synchronous: { type: 'string' },
    workers: { type: 'string' },
  });
  if (values.help) return help('serve');
  const synchronous = oneOf(values.synchronous, ['full', 'normal'] as const, '--synchronous');
  const dataDir = (values.data as string | undefined) ?? defaultDataDir();
  const token = (values.token as string | undefined) ?? process.env.MPL_TOKEN;
  const mode = oneOf(values.mode, ['strict', 'transparent'] as const, '--mode') ?? 'strict';
  const hashAlgorithm = oneOf(values.hash, ['sha256', 'b3'] as const, '--hash');
  const location = postgresLocation(values.provenance);
  const port = integer(values.port, '--port') ?? DEFAULT_PORT;
  const maxBodyBytes = integer(values['max-body'], '--max-body') ?? DEFAULT_MAX_BODY_BYTES;
  const hardening = hardeningOptions(values);
  const workers = workerCount(values.workers);
  const worker = isClusterWorker();
  // A worker's hub first: it must hear the primary from the start.
  const messageHub = worker ? clusterMessageHub() : undefined;
  // Several workers: this process forks them (each runs this command line) and watches them.
  if (workers > 1 && !worker)
    return runClusterPrimary({
      workers,
      onListening: (url, description) =>
        out(`MPL proxy ${VERSION} listening on ${url} (${description}, ${workers} workers)`),
      log: (line) => process.stderr.write(`${line}\n`),
    });
  const store = location
    ? await openPostgresProvenanceStore(location, hashAlgorithm ? { algorithm: hashAlgorithm } : {})
    : undefined;
  const proxy = await startProxy({
    port,
    host: (values.host as string | undefined) ?? '127.0.0.1',
    dataDir,
    stypes: strings(values.stypes),
    mode,
    maxBodyBytes,
    ...(values.upstream ? { upstream: values.upstream as string } : {}),
    ...(token ? { token } : {}),
    ...(hashAlgorithm ? { hashAlgorithm } : {}),
    ...(values.profile ? { defaultProfile: values.profile as string } : {}),
    ...(store ? { store } : {}),
    ...(synchronous ? { synchronous } : {}),
    ...hardening,
    ...(values.policy ? { policy: await MplPolicy.load(values.policy as string) } : {}),
    ...(messageHub ? { messageHub } : {}),
  });
  const description = `mode ${mode}, ${proxy.engine.registry.size} STypes, provenance in ${location ? describePostgresUrl(location) : dataDir}${token ? ', token required' : ''}${values.upstream ? `, upstream ${values.upstream}` : ''}`;
  if (worker) announceListening(proxy.url, description);
  else out(`MPL proxy ${VERSION} listening on ${proxy.url} (${description})`);
  await new Promise<void>((resolve) => {
    // A worker may get a terminal's SIGINT and its primary's SIGTERM: both only stop it.
    const listen = worker ? 'on' : 'once';
    process[listen]('SIGINT', () => resolve());
    process[listen]('SIGTERM', () => resolve());
  });
  await proxy.close();
  return 0;
}

/** `--workers N|auto` (default 1; `auto`: the available parallelism). */
function workerCount(value: unknown): number {
  if (value === 'auto') return availableParallelism();
  const count = integer(value, '--workers') ?? 1;
  if (count < 1) throw new UsageError('--workers must be at least 1 (or auto)');
  return count;
}

/** The `--provenance` URL, checked: only PostgreSQL goes there (SQLite is `--data DIR`). */
function postgresLocation(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !isPostgresUrl(value))
    throw new UsageError(
      `--provenance takes a postgres:// URL, not ${String(value)} (for SQLite use --data DIR)`,
    );
  return value;
}

async function schemas(argv: string[]): Promise<number> {
  const [subcommand, ...rest] = argv;
  if (subcommand !== 'list' && subcommand !== 'show') {
    if (subcommand === undefined || subcommand === '--help' || subcommand === '-h')
      return help('mpl');
    throw new UsageError(`Unknown command: mpl schemas ${subcommand} (try list or show)`);
  }
  const { values, positionals } = parse(rest, {
    namespace: { type: 'string' },
    stypes: { type: 'string', multiple: true },
    json: { type: 'boolean' },
  });
  if (values.help) return help(`schemas ${subcommand}`);
  const registry = await STypeRegistry.load({ directories: strings(values.stypes) });
  if (subcommand === 'list') {
    const list = registry.list(values.namespace ? { namespace: values.namespace as string } : {});
    if (values.json) out(JSON.stringify(list, null, 2));
    else if (list.length === 0)
      out(`No STypes${values.namespace ? ` under ${values.namespace}` : ''}.`);
    else {
      const width = Math.max(...list.map((summary) => summary.id.length));
      for (const summary of list)
        out(`${summary.id.padEnd(width)}  ${summary.title ?? ''}`.trimEnd());
    }
    return 0;
  }
  const id = positionals[0];
  if (!id)
    throw new UsageError(
      'mpl schemas show needs an SType id: mpl schemas show org.agent.TaskPlan.v1',
    );
  const definition = registry.get(id);
  if (!definition) {
    process.stderr.write(`SType ${id} is not registered. Try mpl schemas list.\n`);
    return 1;
  }
  const { source: _source, ...shown } = definition;
  out(JSON.stringify(shown, null, 2));
  return 0;
}

async function validate(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, {
    profile: { type: 'string' },
    stypes: { type: 'string', multiple: true },
    json: { type: 'boolean' },
  });
  if (values.help) return help('validate');
  const [id, file] = positionals;
  if (!id || !file)
    throw new UsageError(
      'mpl validate needs an SType id and a file: mpl validate org.agent.TaskPlan.v1 plan.json',
    );
  const engine = await MplEngine.create({ directories: strings(values.stypes) });
  const payload = await readJsonFile(file);
  const verdict = engine.inspect(
    id,
    payload,
    values.profile ? { profile: values.profile as string } : {},
  );
  if (values.json) out(JSON.stringify(verdict, null, 2));
  else if (verdict.accepted)
    out(
      `valid: ${file} is a ${verdict.stype} (QoM ${verdict.qom.profile} passed)\nsem_hash: ${verdict.semHash}`,
    );
  else {
    const error = engine.rejection(verdict);
    out(`invalid: ${file} [${error.code}]`);
    for (const detail of error.details)
      out(
        `  ${detail.path || '(payload)'}: ${detail.message}${detail.layer === 'args' ? ` (args, ${detail.stype})` : ''}`,
      );
  }
  return verdict.accepted ? 0 : 1;
}

async function hash(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, {
    alg: { type: 'string' },
    canonical: { type: 'boolean' },
  });
  if (values.help) return help('hash');
  const file = positionals[0];
  if (!file) throw new UsageError('mpl hash needs a file: mpl hash payload.json');
  const algorithm: HashAlgorithm =
    oneOf(values.alg, ['sha256', 'b3'] as const, '--alg') ?? 'sha256';
  const canonical = canonicalize(await readJsonFile(file));
  out(values.canonical ? canonical : hashCanonical(canonical, algorithm));
  return 0;
}

async function provenance(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, {
    verify: { type: 'boolean' },
    data: { type: 'string' },
    provenance: { type: 'string' },
    json: { type: 'boolean' },
  });
  if (values.help) return help('provenance');
  const planId = positionals[0];
  if (!planId)
    throw new UsageError(
      'mpl provenance needs a plan id: mpl provenance 550e8400-e29b-41d4-a716-446655440010',
    );
  const location = postgresLocation(values.provenance);
  const dataDir = (values.data as string | undefined) ?? defaultDataDir();
  const database = location ? describePostgresUrl(location) : join(dataDir, 'provenance.db');
  // A read creates nothing: no folder, no empty database.
  if (!location && !existsSync(database)) {
    process.stderr.write(
      `No provenance database in ${dataDir} (no ${database}): pass --data DIR, the folder the proxy was started with.\n`,
    );
    return 1;
  }
  const store = location
    ? await openPostgresProvenanceStore(location)
    : SqliteProvenanceStore.open({ dataDir, readOnly: true });
  try {
    const chain = await store.chain(planId, { payloads: Boolean(values.verify) });
    if (chain.length === 0) {
      process.stderr.write(`No provenance is recorded for plan ${planId} in ${database}.\n`);
      return 1;
    }
    const verdict = values.verify ? verifyChain(chain) : undefined;
    if (values.json) {
      const entries = chain.map(({ payload: _payload, ...entry }) => entry);
      out(
        JSON.stringify(
          verdict ? { planId, chain: entries, verification: verdict } : { planId, chain: entries },
          null,
          2,
        ),
      );
    } else {
      out(`Chain length: ${chain.length}`);
      for (const entry of chain)
        out(
          `  ${entry.seq}. [${entry.stype}] ${entry.sem_hash.slice(0, 23)}… (parent: ${entry.parent_hash ? `${entry.parent_hash.slice(0, 23)}…` : 'root'}) ${entry.qom_profile} ${entry.qom_passed ? 'passed' : 'failed'}`,
        );
      if (verdict) {
        out(
          verdict.valid ? `verified: ${verdict.length} entries, head ${verdict.head}` : 'BROKEN:',
        );
        for (const problem of verdict.problems) out(`  ${problem.message}`);
      }
    }
    return verdict && !verdict.valid ? 1 : 0;
  } finally {
    await store.close();
  }
}

function help(command: string): number {
  out(HELP[command] ?? HELP.mpl ?? '');
  return 0;
}

async function main(argv: string[]): Promise<number> {
  // `pnpm mpl -- --version` passes the `--` on.
  const [command, ...rest] = argv[0] === '--' ? argv.slice(1) : argv;
  switch (command) {
    case 'serve':
      return serve(rest);
    case 'schemas':
      return schemas(rest);
    case 'validate':
      return validate(rest);
    case 'hash':
      return hash(rest);
    case 'provenance':
      return provenance(rest);
    case '--version':
    case '-v':
      out(VERSION);
      return 0;
    case undefined:
    case '--help':
    case '-h':
    case 'help':
      return help('mpl');
    default:
      throw new UsageError(`Unknown command: ${command}`);
  }
}

main(process.argv.slice(2))
  .then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      if (error instanceof UsageError) {
        process.stderr.write(`mpl: ${error.message}\nRun mpl --help for usage.\n`);
        process.exitCode = 2;
      } else if (MplError.isInstance(error)) {
        process.stderr.write(`mpl: [${error.code}] ${error.message}\n`);
        process.exitCode = 1;
      } else {
        process.stderr.write(
          `mpl: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
        );
        process.exitCode = 1;
      }
    },
  )
  // A worker of `mpl serve --workers N` exits once done: its IPC channel would hold it.
  .finally(() => {
    if (isClusterWorker()) leaveCluster();
  });
