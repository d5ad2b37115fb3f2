import { availableParallelism } from 'node:os';
import { MplPolicy } from '@mtpx/mpl';
import { runClusterPrimary } from '../cluster/cluster-primary';
import { announceListening, clusterMessageHub, isClusterWorker } from '../cluster/cluster-worker';
import {
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_PORT,
  defaultDataDir,
  type ProxyOptions,
} from '../proxy-options';
import { startProxy } from '../server';
import { describePostgresUrl, openPostgresProvenanceStore } from '../store/postgres-provenance';
import { VERSION } from '../version';
import {
  commaList,
  integer,
  oneOf,
  type ParsedArguments,
  parse,
  postgresLocation,
  strings,
} from './cli-arguments';
import { out, printHelp } from './cli-help';
import { UsageError } from './usage-error';

// `mpl serve`: loaded only when that command runs (the engine, the stores, the server).

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

/** `mpl serve …`: runs the proxy until SIGINT or SIGTERM. */
export async function serve(argv: string[]): Promise<number> {
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
  if (values.help) return printHelp('serve');
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
