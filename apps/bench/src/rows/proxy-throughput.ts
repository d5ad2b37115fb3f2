import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InMemoryProvenanceStore } from '@mtpx/mpl';
import { type RunningProxy, startProxy } from '@mtpx/mpl-proxy';
import type { BenchConfig } from '../config';
import { LoadProcess } from '../load/load-client';
import type { LoadReport } from '../load/load-protocol';
import { startBareCluster } from '../support/bare-cluster';
import { startBareServer } from '../support/bare-server';
import { type BareSyncedServer, startBareSyncedServer } from '../support/bare-synced-server';
import { formatNumber } from '../support/format';
import type { ResultLine, RowResult } from '../support/results';
import { interleave, pairedRatios, summarize } from '../support/stats';
import { loadTaskPlan, taskPlanStype } from '../support/task-plan';
import {
  checkChain,
  idleSyncMs,
  type LogSyncCount,
  latencyDetails,
  latencyNote,
  logSyncs,
  syncCeiling,
  syncsBetween,
} from './proxy-measures';
import { benchSchema, type ServeProcess, startServe } from './proxy-processes';

/** One run's report, with the CPU this process spent per answered call. */
type ServerReport = LoadReport & { cpuMicrosecondsPerCall?: number };

/** The median CPU per call of in-process runs. */
function cpuPerCall(runs: readonly ServerReport[]): number {
  return summarize(runs.map((run) => run.cpuMicrosecondsPerCall ?? 0)).median;
}

/** The share of bare `node:http`'s rate the kill -9-durable proxy must reach (issue 23). */
const normalTarget = 0.4;
/** The share of its fsync ceiling the power-loss-durable proxy must reach (issue 23). */
const ceilingTarget = 0.8;

/**
 * Row 5: `POST /call` of the MPL proxy (a TaskPlan, qom-basic, provenance durable before
 * each answer) against a bare `node:http` server answering the same JSON text, each loaded
 * by autocannon from a separate process. Every proxy serves requests with its default HTTP
 * layer, `node:http`, unless the line says otherwise:
 *
 * - SQLite `synchronous=full` (the default: the log is synced before the answer, so it
 *   survives a power loss) and `synchronous=normal` (committed to the log: survives
 *   `kill -9`), in this process;
 * - the proxy with provenance in memory, which splits the proxy's own work from the store's;
 * - `normal` again on the proxy's own HTTP layer (`httpLayer: 'fast'`), for the choice
 *   between the layers;
 * - `mpl serve` on PostgreSQL, as one process and as two processes appending to the same
 *   plan's chain, each its own process;
 * - `mpl serve --workers 2` on SQLite (`normal` and `full`): two `node:cluster` workers on one
 *   port and one database (the way the proxy runs on more than one core), beside its fair
 *   peer, the bare server in two `node:cluster` workers.
 *
 * Beside the bare server, a bare *synced* server answers each request after the same group
 * commit the `full` store uses (an `fdatasync` begun after its write): the share of its
 * sync ceiling it reaches is what any server waiting for such a sync reaches here.
 */
export async function proxyRow(config: BenchConfig): Promise<RowResult> {
  const { durationSeconds, connections, repetitions } = config.proxy;
  const dataDir = await mkdtemp(join(tmpdir(), 'mtpx-bench-proxy-'));
  const schema = await benchSchema();
  const started: Array<RunningProxy | ServeProcess> = [];
  const loader = await LoadProcess.start();
  let bare: Awaited<ReturnType<typeof startBareServer>> | undefined;
  let bareTwo: Awaited<ReturnType<typeof startBareCluster>> | undefined;
  let bareSynced: BareSyncedServer | undefined;
  try {
    const inProcess = async (options: Parameters<typeof startProxy>[0]) => {
      const proxy = await startProxy({ port: 0, ...options });
      started.push(proxy);
      return proxy;
    };
    const fullProxy = await inProcess({ dataDir: join(dataDir, 'full') });
    const normalProxy = await inProcess({
      dataDir: join(dataDir, 'normal'),
      synchronous: 'normal',
    });
    const memoryProxy = await inProcess({ store: new InMemoryProvenanceStore() });
    const fastProxy = await inProcess({
      dataDir: join(dataDir, 'fast'),
      synchronous: 'normal',
      httpLayer: 'fast',
    });
    // One process first: it creates the tables, then the second joins it.
    const serveArgs = ['--provenance', schema.location];
    const first = await startServe(serveArgs);
    started.push(first);
    const second = await startServe(serveArgs);
    started.push(second);
    // Two node:cluster workers on one SQLite database, each setting its own folder.
    const workersNormal = await startServe([
      '--data',
      join(dataDir, 'workers-normal'),
      '--workers',
      '2',
      '--synchronous',
      'normal',
    ]);
    started.push(workersNormal);
    const workersFull = await startServe([
      '--data',
      join(dataDir, 'workers-full'),
      '--workers',
      '2',
    ]);
    started.push(workersFull);

    const { example } = await loadTaskPlan();
    const planId = String(example.planId);
    const request = {
      method: 'POST' as const,
      headers: {
        'content-type': 'application/json',
        'x-mpl-stype': taskPlanStype,
        'x-mpl-profile': 'qom-basic',
      },
      body: JSON.stringify({ method: 'agent.plan', payload: example }),
    };
    // One call first: it must be accepted, and its answer is what the bare server sends.
    const accepted = await fetch(`${fullProxy.url}/call`, request);
    const answer = await accepted.text();
    if (accepted.status !== 200 || accepted.headers.get('x-mpl-qom-result') !== 'pass') {
      throw new Error(`proxy row: the TaskPlan was not accepted (${accepted.status}): ${answer}`);
    }
    bare = await startBareServer(answer);
    bareTwo = await startBareCluster(answer, 2);
    bareSynced = await startBareSyncedServer(answer, dataDir);
    const syncedServer = bareSynced;
    const bareSyncs = (): LogSyncCount => {
      const stats = syncedServer.syncStats;
      return { syncs: stats.syncs, seconds: stats.seconds, entries: stats.commits };
    };
    // Each mpl serve process answers once before any timed load: its first call opens its
    // pool to PostgreSQL, which a short warm-up could spend whole on a busy machine.
    for (const server of [first, second, workersNormal, workersFull]) {
      const response = await fetch(`${server.url}/call`, request);
      if (response.status !== 200)
        throw new Error(
          `proxy row: mpl serve at ${server.url} answered ${response.status}: ${await response.text()}`,
        );
    }

    // Each run also measures the CPU this process spent per answered call: the servers
    // in it take turns, one loaded at a time, so the time is the loaded server's. CPU per
    // call moves much less with the machine's load than requests/s.
    const load = async (url: string | string[], seconds: number, rate?: number) => {
      const before = process.cpuUsage();
      const report: ServerReport = await loader.load({
        url,
        ...request,
        durationSeconds: seconds,
        connections,
        ...(rate === undefined ? {} : { rate }),
      });
      const spent = process.cpuUsage(before);
      report.cpuMicrosecondsPerCall = (spent.user + spent.system) / report.completed;
      return report;
    };
    const targets = {
      full: `${fullProxy.url}/call`,
      normal: `${normalProxy.url}/call`,
      memory: `${memoryProxy.url}/call`,
      fast: `${fastProxy.url}/call`,
      postgres: `${first.url}/call`,
      postgresTwo: [`${first.url}/call`, `${second.url}/call`],
      workersNormal: `${workersNormal.url}/call`,
      workersFull: `${workersFull.url}/call`,
      bare: bare.url,
      bareSynced: bareSynced.url,
      bareTwo: bareTwo.url,
    };
    // Warm every server up (JIT, page caches, pools) before anything is measured.
    const warmUpSeconds = Math.min(1, durationSeconds);
    const warmUps: Record<string, ServerReport> = {};
    // Two workers take the connections in turn: each gets as long as one process does.
    const twoProcesses = new Set(['workersNormal', 'workersFull', 'bareTwo']);
    for (const [name, url] of Object.entries(targets))
      warmUps[name] = await load(url, (twoProcesses.has(name) ? 2 : 1) * warmUpSeconds);
    const idleSync = idleSyncMs(dataDir, config.mode === 'full' ? 200 : 10);
    const syncsBefore = logSyncs(fullProxy);
    const bareSyncsBefore = bareSyncs();
    const reports = await interleave(repetitions, [
      ['full', () => load(targets.full, durationSeconds)],
      ['normal', () => load(targets.normal, durationSeconds)],
      ['memory', () => load(targets.memory, durationSeconds)],
      ['fast', () => load(targets.fast, durationSeconds)],
      ['postgres', () => load(targets.postgres, durationSeconds)],
      ['postgresTwo', () => load(targets.postgresTwo, durationSeconds)],
      ['workersNormal', () => load(targets.workersNormal, durationSeconds)],
      ['workersFull', () => load(targets.workersFull, durationSeconds)],
      ['bare', () => load(targets.bare, durationSeconds)],
      ['bareSynced', () => load(targets.bareSynced, durationSeconds)],
      ['bareTwo', () => load(targets.bareTwo, durationSeconds)],
    ] as const);
    const rate = (report: LoadReport) => report.requestsPerSecond;
    const rates = (name: keyof typeof reports) => reports[name].map(rate);
    const fullSyncs = syncCeiling(syncsBetween(syncsBefore, logSyncs(fullProxy)), connections);
    const syncedSyncs = syncCeiling(syncsBetween(bareSyncsBefore, bareSyncs()), connections);
    // The latency a user sees when the durable proxy is not saturated: half the rate it
    // reached, offered evenly over the same connections.
    const halfRate = Math.max(1, Math.round(summarize(rates('full')).median / 2));
    const halfLoad: ServerReport[] = [];
    for (let round = 0; round < repetitions; round++)
      halfLoad.push(await load(targets.full, durationSeconds, halfRate));
    await checkChain(fullProxy.url, planId, [...reports.full, ...halfLoad]);
    await checkChain(normalProxy.url, planId, reports.normal);
    await checkChain(memoryProxy.url, planId, reports.memory);
    await checkChain(fastProxy.url, planId, reports.fast);
    // Both processes append to one chain: every call either answered is in it, once.
    await checkChain(first.url, planId, [
      ...(['postgres', 'postgresTwo'] as const).map((name) => warmUps[name] as LoadReport),
      ...reports.postgres,
      ...reports.postgresTwo,
    ]);
    for (const name of ['workersNormal', 'workersFull'] as const)
      await checkChain(targets[name].replace(/\/call$/, ''), planId, [
        warmUps[name] as LoadReport,
        ...reports[name],
      ]);

    const benchmark = `TaskPlan \`POST /call\`, ${connections} connections, ${formatNumber(durationSeconds)} s each`;
    const toBare = (runs: readonly LoadReport[]) => ({
      to: 'bare `node:http`',
      value: pairedRatios(runs.map(rate), rates('bare')),
    });
    const line = (
      variant: string,
      runs: ServerReport[],
      note: string,
      ratio: ResultLine['ratio'] | null = toBare(runs),
      inProcess = true,
    ): ResultLine => ({
      benchmark,
      variant,
      value: summarize(runs.map(rate)),
      unit: 'req/s',
      ...(ratio ? { ratio } : {}),
      details: inProcess
        ? { ...latencyDetails(runs), cpuMicrosecondsPerCall: cpuPerCall(runs) }
        : latencyDetails(runs),
      note: inProcess ? `${note} · ${formatNumber(cpuPerCall(runs))} µs CPU/call` : note,
    });
    // Each answer of the full proxy waits for a sync of the log that began after its commit,
    // so `connections` callers can be answered at most `connections` times per sync: the
    // ceiling the disk sets, at the sync time measured under this load. The bare synced
    // server's share of its own ceiling is what waiting for such a sync leaves reachable.
    const shareOf = (name: keyof typeof reports, sync: { ceiling: number }) =>
      sync.ceiling === 0 ? 0 : summarize(rates(name)).median / sync.ceiling;
    const ofCeiling = shareOf('full', fullSyncs);
    const bareOfCeiling = shareOf('bareSynced', syncedSyncs);
    const fullOverSynced = pairedRatios(rates('full'), rates('bareSynced'));
    const syncNote = (sync: ReturnType<typeof syncCeiling>, share: number) =>
      `each fdatasync took ${formatNumber(sync.syncMs)} ms under this load and carried ${formatNumber(sync.entriesPerSync)} entries: at most ${formatNumber(sync.ceiling)} req/s over ${connections} connections; ${formatNumber(share * 100)} % of it`;
    const normalRatio = pairedRatios(rates('normal'), rates('bare')).median;
    const fastOverNode = pairedRatios(rates('fast'), rates('normal'));
    const scaling = pairedRatios(rates('postgresTwo'), rates('postgres'));
    /** A `--workers 2` line: its ratios to both bare servers and to its one-process peer. */
    const workersLine = (
      synchronous: 'normal' | 'full',
      runs: ServerReport[],
      oneProcess: readonly number[],
    ): ResultLine => {
      const toBareTwo = pairedRatios(runs.map(rate), rates('bareTwo'));
      const toOne = pairedRatios(runs.map(rate), oneProcess);
      const result = line(
        `\`mpl serve --workers 2\` (SQLite, synchronous=${synchronous}): 2 node:cluster workers on one database`,
        runs,
        `${latencyNote(runs)} · ${formatNumber(toBareTwo.median)}× (${formatNumber(toBareTwo.min)} – ${formatNumber(toBareTwo.max)}) bare \`node:http\` in 2 processes · ${formatNumber(toOne.median)}× the one-process proxy (${synchronous}) · every answered call in the verified chain; its own processes`,
        toBare(runs),
        false,
      );
      result.details = {
        ...result.details,
        ratioToBareTwoProcesses: toBareTwo.median,
        ratioToOneProcess: toOne.median,
      };
      return result;
    };
    const lines = [
      line(
        'MPL proxy (qom-basic, SQLite provenance, synchronous=full: survives a power loss)',
        reports.full,
        `${latencyNote(reports.full)} · every answered call in the verified chain · ${syncNote(fullSyncs, ofCeiling)} (target ≥ ${ceilingTarget * 100} %; ${formatNumber(idleSync)} ms idle) · ${formatNumber(fullOverSynced.median)}× (${formatNumber(fullOverSynced.min)} – ${formatNumber(fullOverSynced.max)}) the bare synced server`,
      ),
      line(
        'MPL proxy (SQLite provenance, synchronous=normal: survives kill -9)',
        reports.normal,
        `${latencyNote(reports.normal)} · every answered call in the verified chain · target ≥ ${normalTarget}× (${normalRatio >= normalTarget ? 'met' : 'not met'})`,
      ),
      line(
        `MPL proxy (SQLite, synchronous=full) at half its rate: ${formatNumber(halfRate)} req/s offered`,
        halfLoad,
        `${latencyNote(halfLoad)} · target p99 < 10 ms`,
        null,
      ),
      line(
        'MPL proxy, provenance in memory (no disk)',
        reports.memory,
        latencyNote(reports.memory),
      ),
      line(
        "MPL proxy (SQLite, synchronous=normal) on its own HTTP layer (`httpLayer: 'fast'`)",
        reports.fast,
        `${latencyNote(reports.fast)} · ${formatNumber(fastOverNode.median)}× (${formatNumber(fastOverNode.min)} – ${formatNumber(fastOverNode.max)}) the same proxy on \`node:http\``,
      ),
      line(
        '`mpl serve` on PostgreSQL, 1 process',
        reports.postgres,
        `${latencyNote(reports.postgres)} · answers after the COMMIT; its own process`,
        toBare(reports.postgres),
        false,
      ),
      line(
        '`mpl serve` on PostgreSQL, 2 processes appending to one chain',
        reports.postgresTwo,
        `${latencyNote(reports.postgresTwo)} · the connections split between the two; every answered call of both in the one verified chain`,
        { to: '1 process', value: scaling },
        false,
      ),
      workersLine('normal', reports.workersNormal, rates('normal')),
      workersLine('full', reports.workersFull, rates('full')),
      line('bare `node:http`, fixed JSON', reports.bare, latencyNote(reports.bare), null),
      line(
        'bare `node:http`, synced: each answer after a shared fdatasync of the file its body was appended to',
        reports.bareSynced,
        `${latencyNote(reports.bareSynced)} · the full store's group commit, nothing else · ${syncNote(syncedSyncs, bareOfCeiling)}`,
      ),
      line(
        'bare `node:http`, fixed JSON, 2 processes (node:cluster)',
        reports.bareTwo,
        `${latencyNote(reports.bareTwo)} · its own processes`,
        toBare(reports.bareTwo),
        false,
      ),
    ];
    return {
      row: 5,
      title: 'MPL proxy',
      measures:
        'Requests/s and latency of POST /call (TaskPlan, qom-basic, durable provenance: synced to disk, or committed to the log, in SQLite or PostgreSQL) on node:http, against a bare node:http server, loaded by autocannon from another process; one and two mpl serve processes on PostgreSQL; mpl serve --workers 2 on SQLite against a bare node:http server in 2 processes.',
      repetitions,
      lines,
    };
  } finally {
    await loader.stop();
    await bare?.close();
    await bareTwo?.close();
    await bareSynced?.close();
    for (const server of started.reverse())
      await ('close' in server ? server.close() : server.stop());
    await schema.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}
