import { closeSync, fdatasyncSync, openSync, writeSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InMemoryProvenanceStore } from '@mtpx/mpl';
import { type RunningProxy, type SqliteProvenanceStore, startProxy } from '@mtpx/mpl-proxy';
import { safeParseJson } from '@mtpx/protocol';
import type { BenchConfig } from '../config';
import { LoadProcess } from '../load/load-client';
import type { LoadReport } from '../load/load-protocol';
import { startBareServer } from '../support/bare-server';
import { formatNumber } from '../support/format';
import type { ResultLine, RowResult } from '../support/results';
import { interleave, pairedRatios, summarize } from '../support/stats';
import { loadTaskPlan, taskPlanStype } from '../support/task-plan';

function latencyNote(reports: readonly LoadReport[]): string {
  const p50 = summarize(reports.map((report) => report.latencyP50Ms)).median;
  const p99 = summarize(reports.map((report) => report.latencyP99Ms)).median;
  return `p50 ${formatNumber(p50)} ms, p99 ${formatNumber(p99)} ms`;
}

function latencyDetails(reports: readonly LoadReport[]): Record<string, number> {
  const median = (pick: (report: LoadReport) => number) => summarize(reports.map(pick)).median;
  return {
    latencyP50Ms: median((report) => report.latencyP50Ms),
    latencyP99Ms: median((report) => report.latencyP99Ms),
    latencyMeanMs: median((report) => report.latencyMeanMs),
    requestsPerRun: median((report) => report.completed),
  };
}

/**
 * The median time of one `fdatasync` after appending 12 KiB (a commit's pages) to a file
 * in `folder`, on an otherwise idle process, in ms: the disk's own floor under an answer
 * that waits for its entry to be on disk.
 */
function idleSyncMs(folder: string, samples: number): number {
  const fd = openSync(join(folder, 'sync-probe'), 'w');
  const block = Buffer.alloc(3 * 4096, 1);
  const times: number[] = [];
  try {
    for (let index = 0; index < samples; index++) {
      writeSync(fd, block, 0, block.length, index * block.length);
      const started = performance.now();
      fdatasyncSync(fd);
      times.push(performance.now() - started);
    }
  } finally {
    closeSync(fd);
  }
  return summarize(times).median;
}

/**
 * Row 5: `POST /call` of the MPL proxy (a TaskPlan, qom-basic, provenance in SQLite: each
 * answer waits until its entry is durable) against a bare `node:http` server answering the
 * same JSON text, each loaded by autocannon from a separate process. The proxy runs with
 * both durabilities SQLite offers: `synchronous=full` (the default: the write-ahead log is
 * synced to disk before the answer, so it survives a power loss) and `synchronous=normal`
 * (committed to the log before the answer: survives `kill -9`, not a power loss). A fourth
 * server, the proxy with its provenance in memory, splits the proxy's own work from the
 * store's.
 */
export async function proxyRow(config: BenchConfig): Promise<RowResult> {
  const { durationSeconds, connections, repetitions } = config.proxy;
  const dataDir = await mkdtemp(join(tmpdir(), 'mtpx-bench-proxy-'));
  const proxy = await startProxy({ port: 0, dataDir: join(dataDir, 'full') });
  const normalProxy = await startProxy({
    port: 0,
    dataDir: join(dataDir, 'normal'),
    synchronous: 'normal',
  });
  const memoryProxy = await startProxy({ port: 0, store: new InMemoryProvenanceStore() });
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
  const first = await fetch(`${proxy.url}/call`, request);
  const answer = await first.text();
  if (first.status !== 200 || first.headers.get('x-mpl-qom-result') !== 'pass') {
    throw new Error(`proxy row: the TaskPlan was not accepted (${first.status}): ${answer}`);
  }
  const bare = await startBareServer(answer);
  const loader = await LoadProcess.start();
  try {
    const load = (url: string, seconds: number, rate?: number) =>
      loader.load({
        url,
        ...request,
        durationSeconds: seconds,
        connections,
        ...(rate === undefined ? {} : { rate }),
      });
    // Warm both servers up (JIT, SQLite page cache) before anything is measured.
    const warmUpSeconds = Math.min(1, durationSeconds);
    await load(`${proxy.url}/call`, warmUpSeconds);
    await load(`${normalProxy.url}/call`, warmUpSeconds);
    await load(`${memoryProxy.url}/call`, warmUpSeconds);
    await load(bare.url, warmUpSeconds);
    const idleSync = idleSyncMs(dataDir, config.mode === 'full' ? 200 : 10);
    const syncsBefore = logSyncs(proxy);
    const reports = await interleave(repetitions, [
      ['proxy', () => load(`${proxy.url}/call`, durationSeconds)],
      ['normal', () => load(`${normalProxy.url}/call`, durationSeconds)],
      ['memory', () => load(`${memoryProxy.url}/call`, durationSeconds)],
      ['bare', () => load(bare.url, durationSeconds)],
    ] as const);
    const rate = (report: LoadReport) => report.requestsPerSecond;
    const syncs = difference(logSyncs(proxy), syncsBefore);
    // The latency a user sees when the durable proxy is not saturated: half the rate it
    // reached, offered evenly over the same connections.
    const halfRate = Math.max(1, Math.round(summarize(reports.proxy.map(rate)).median / 2));
    const halfLoad: LoadReport[] = [];
    for (let round = 0; round < repetitions; round++)
      halfLoad.push(await load(`${proxy.url}/call`, durationSeconds, halfRate));
    await checkChain(proxy.url, planId, [...reports.proxy, ...halfLoad]);
    await checkChain(normalProxy.url, planId, reports.normal);
    await checkChain(memoryProxy.url, planId, reports.memory);
    const benchmark = `TaskPlan \`POST /call\`, ${connections} connections, ${formatNumber(durationSeconds)} s each`;
    const line = (
      variant: string,
      runs: LoadReport[],
      note: string,
      againstBare = true,
    ): ResultLine => ({
      benchmark,
      variant,
      value: summarize(runs.map(rate)),
      unit: 'req/s',
      ...(againstBare
        ? {
            ratio: {
              to: 'bare `node:http`',
              value: pairedRatios(runs.map(rate), reports.bare.map(rate)),
            },
          }
        : {}),
      details: latencyDetails(runs),
      note,
    });
    // Each answer of the full proxy waits for a sync of the log, so `connections` callers can
    // be answered at most `connections` times per sync: the ceiling the disk sets, at the
    // sync time measured under this load.
    const syncMs = syncs.syncs === 0 ? 0 : (syncs.seconds * 1000) / syncs.syncs;
    const syncCeiling = syncMs === 0 ? 0 : connections / (syncMs / 1000);
    const entriesPerSync = syncs.syncs === 0 ? 0 : syncs.entries / syncs.syncs;
    const lines = [
      line(
        'MPL proxy (qom-basic, SQLite provenance, synchronous=full: survives a power loss)',
        reports.proxy,
        `${latencyNote(reports.proxy)} · every answered call in the verified chain · each fdatasync of the log took ${formatNumber(syncMs)} ms under this load (${formatNumber(idleSync)} ms idle) and carried ${formatNumber(entriesPerSync)} entries: at most ${formatNumber(syncCeiling)} req/s over ${connections} connections`,
      ),
      line(
        'MPL proxy (SQLite provenance, synchronous=normal: survives kill -9)',
        reports.normal,
        `${latencyNote(reports.normal)} · every answered call in the verified chain · target ≥ 0.5×`,
      ),
      line(
        `MPL proxy (SQLite, synchronous=full) at half its rate: ${formatNumber(halfRate)} req/s offered`,
        halfLoad,
        `${latencyNote(halfLoad)} · target p99 < 10 ms`,
        false,
      ),
      line(
        'MPL proxy, provenance in memory (no disk)',
        reports.memory,
        latencyNote(reports.memory),
      ),
      line('bare `node:http`, fixed JSON', reports.bare, latencyNote(reports.bare), false),
    ];
    return {
      row: 5,
      title: 'MPL proxy',
      measures:
        'Requests/s and latency of POST /call (TaskPlan, qom-basic, durable provenance: synced to disk, or committed to the log) against a bare node:http server, loaded by autocannon from another process.',
      repetitions,
      lines,
    };
  } finally {
    await loader.stop();
    await bare.close();
    await proxy.close();
    await normalProxy.close();
    await memoryProxy.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** The full proxy's log syncs so far, and the entries (2xx answers) they covered. */
function logSyncs(proxy: RunningProxy): { syncs: number; seconds: number; entries: number } {
  const stats = (proxy.store as SqliteProvenanceStore).logSyncStats;
  if (!stats) throw new Error('proxy row: the full proxy keeps no log sync statistics');
  return {
    syncs: stats.syncs,
    seconds: stats.seconds,
    entries: proxy.metrics.provenanceEntries.value(),
  };
}

function difference(
  after: ReturnType<typeof logSyncs>,
  before: ReturnType<typeof logSyncs>,
): ReturnType<typeof logSyncs> {
  return {
    syncs: after.syncs - before.syncs,
    seconds: after.seconds - before.seconds,
    entries: after.entries - before.entries,
  };
}

/** Every call the proxy answered 2xx (the warm-up's included) must be in its verified chain. */
async function checkChain(url: string, planId: string, reports: readonly LoadReport[]) {
  const answered = reports.reduce((sum, report) => sum + report.completed, 0);
  const verification = await chainVerification(url, planId);
  if (!verification.valid || verification.length < answered) {
    throw new Error(
      `proxy row: ${answered} calls were answered 2xx but the provenance chain holds ${verification.length} entries (valid: ${verification.valid})`,
    );
  }
}

async function chainVerification(
  url: string,
  planId: string,
): Promise<{ valid: boolean; length: number }> {
  const response = await fetch(`${url}/provenance/verify?planId=${encodeURIComponent(planId)}`);
  const parsed = safeParseJson(await response.text());
  const body = (parsed.ok ? parsed.value : {}) as { valid?: unknown; length?: unknown };
  return { valid: body.valid === true, length: typeof body.length === 'number' ? body.length : 0 };
}
