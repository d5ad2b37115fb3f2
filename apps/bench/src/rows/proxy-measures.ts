import { closeSync, fdatasyncSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { RunningProxy, SqliteProvenanceStore } from '@mtpx/mpl-proxy';
import { safeParseJson } from '@mtpx/protocol';
import type { LoadReport } from '../load/load-protocol';
import { formatNumber } from '../support/format';
import { summarize } from '../support/stats';

/** `p50 … ms, p99 … ms`: the medians over the runs. */
export function latencyNote(reports: readonly LoadReport[]): string {
  const p50 = summarize(reports.map((report) => report.latencyP50Ms)).median;
  const p99 = summarize(reports.map((report) => report.latencyP99Ms)).median;
  return `p50 ${formatNumber(p50)} ms, p99 ${formatNumber(p99)} ms`;
}

/** The latency percentiles and answers per run, medians over the runs. */
export function latencyDetails(reports: readonly LoadReport[]): Record<string, number> {
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
export function idleSyncMs(folder: string, samples: number): number {
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

/** A `synchronous=full` proxy's log syncs so far, and the entries (2xx answers) they covered. */
export interface LogSyncCount {
  syncs: number;
  seconds: number;
  entries: number;
}

/** The log syncs of a proxy whose store is SQLite with `synchronous=full`. */
export function logSyncs(proxy: RunningProxy): LogSyncCount {
  const stats = (proxy.store as SqliteProvenanceStore).logSyncStats;
  if (!stats) throw new Error('proxy row: the full proxy keeps no log sync statistics');
  return {
    syncs: stats.syncs,
    seconds: stats.seconds,
    entries: proxy.metrics.provenanceEntries.value(),
  };
}

/** What happened between two counts. */
export function syncsBetween(before: LogSyncCount, after: LogSyncCount): LogSyncCount {
  return {
    syncs: after.syncs - before.syncs,
    seconds: after.seconds - before.seconds,
    entries: after.entries - before.entries,
  };
}

/** What a server's log syncs set: the time of one, the entries it carried, and the ceiling. */
export interface SyncCeiling {
  /** Mean time of one sync under the load, in ms. */
  syncMs: number;
  /** Answers each sync made durable, on average. */
  entriesPerSync: number;
  /**
   * The most answers per second the sync time allows: each answer waits for a sync begun
   * after its write, so `connections` callers are answered at most once per sync each.
   */
  ceiling: number;
}

/** The sync ceiling of `connections` callers, from the syncs counted during their load. */
export function syncCeiling(count: LogSyncCount, connections: number): SyncCeiling {
  if (count.syncs === 0) return { syncMs: 0, entriesPerSync: 0, ceiling: 0 };
  const syncMs = (count.seconds * 1000) / count.syncs;
  return {
    syncMs,
    entriesPerSync: count.entries / count.syncs,
    ceiling: connections / (syncMs / 1000),
  };
}

/**
 * Every call a proxy answered 2xx (the warm-up's included) must be in the verified chain
 * of `planId`, which `url` serves.
 */
export async function checkChain(
  url: string,
  planId: string,
  reports: readonly LoadReport[],
): Promise<void> {
  const answered = reports.reduce((sum, report) => sum + report.completed, 0);
  const verification = await chainVerification(url, planId);
  if (!verification.valid || verification.length < answered) {
    throw new Error(
      `proxy row: ${answered} calls were answered 2xx but the provenance chain at ${url} holds ${verification.length} entries (valid: ${verification.valid})`,
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
