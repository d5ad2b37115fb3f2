import type { LogSyncStats } from './store/wal-sync';

/** Labels of one Prometheus series. */
type Labels = Record<string, string>;

function seriesKey(labels: Labels): string {
  return Object.entries(labels)
    .sort(([left], [right]) => (left < right ? -1 : 1))
    .map(
      ([name, value]) =>
        `${name}="${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`,
    )
    .join(',');
}

/**
 * The series key of `labels`, found by walking maps by each label's name, then value (so
 * the calls made on every request build no string); computed and kept the first time.
 */
interface KeyNode {
  key?: string;
  next?: Map<string, Map<string, KeyNode>>;
}

const maxCachedSeries = 10_000;

function cachedSeriesKey(cache: KeyNode & { size: number }, labels: Labels): string {
  let node: KeyNode = cache;
  for (const name in labels) {
    const value = labels[name] as string;
    node.next ??= new Map();
    let byValue = node.next.get(name);
    if (byValue === undefined) {
      byValue = new Map();
      node.next.set(name, byValue);
    }
    let child = byValue.get(value);
    if (child === undefined) {
      if (cache.size >= maxCachedSeries) return seriesKey(labels);
      child = {};
      byValue.set(value, child);
    }
    node = child;
  }
  if (node.key === undefined) {
    node.key = seriesKey(labels);
    cache.size += 1;
  }
  return node.key;
}

class Counter {
  readonly #series = new Map<string, number>();
  readonly #keys: KeyNode & { size: number } = { size: 0 };
  constructor(
    readonly name: string,
    readonly help: string,
  ) {}
  inc(labels: Labels = {}, amount = 1): void {
    const key = cachedSeriesKey(this.#keys, labels);
    this.#series.set(key, (this.#series.get(key) ?? 0) + amount);
  }
  value(labels: Labels = {}): number {
    return this.#series.get(seriesKey(labels)) ?? 0;
  }
  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} counter`];
    if (this.#series.size === 0) lines.push(`${this.name} 0`);
    for (const [key, value] of this.#series)
      lines.push(`${this.name}${key ? `{${key}}` : ''} ${value}`);
    return lines.join('\n');
  }
}

/**
 * The proxy's counters, rendered as Prometheus text on `GET /metrics`, with the reference
 * names (`mpl_requests_total`, `mpl_schema_validations_total{result}`, …).
 */
export class ProxyMetrics {
  readonly requests = new Counter('mpl_requests_total', 'Requests received, by route and status');
  readonly schemaValidations = new Counter(
    'mpl_schema_validations_total',
    'Schema validations of /call payloads, by result',
  );
  readonly qomEvaluations = new Counter(
    'mpl_qom_evaluations_total',
    'QoM evaluations, by profile and result',
  );
  readonly calls = new Counter(
    'mpl_calls_total',
    'Calls, by SType and outcome (accepted, rejected, passed_through)',
  );
  readonly errors = new Counter('mpl_errors_total', 'Error answers, by code');
  readonly provenanceEntries = new Counter(
    'mpl_provenance_entries_total',
    'Provenance entries committed',
  );
  readonly handshakes = new Counter('mpl_handshakes_total', 'AI-ALPN handshakes');
  readonly upstreamRequests = new Counter(
    'mpl_upstream_requests_total',
    'Calls forwarded upstream, by result',
  );
  readonly #startedAt = Date.now();

  /**
   * Prometheus text exposition format. `logSyncs`, from a store that syncs its log before
   * answering (`SqliteProvenanceStore.logSyncStats`), adds the syncs' count, the commits
   * they served and their total time: what every acknowledgement waits for.
   */
  render(subscribers: number, logSyncs?: LogSyncStats): string {
    const passed = this.schemaValidations.value({ result: 'pass' });
    const failed = this.schemaValidations.value({ result: 'fail' });
    const gauges = [
      '# HELP mpl_schema_pass_rate Share of schema validations that passed',
      '# TYPE mpl_schema_pass_rate gauge',
      `mpl_schema_pass_rate ${passed + failed === 0 ? 1 : passed / (passed + failed)}`,
      '# HELP mpl_message_subscribers Sessions subscribed to GET /messages',
      '# TYPE mpl_message_subscribers gauge',
      `mpl_message_subscribers ${subscribers}`,
      '# HELP mpl_uptime_seconds Seconds since the proxy started',
      '# TYPE mpl_uptime_seconds gauge',
      `mpl_uptime_seconds ${(Date.now() - this.#startedAt) / 1000}`,
    ];
    if (logSyncs)
      gauges.push(
        '# HELP mpl_provenance_log_syncs_total Syncs of the provenance log to disk (fdatasync)',
        '# TYPE mpl_provenance_log_syncs_total counter',
        `mpl_provenance_log_syncs_total ${logSyncs.syncs}`,
        '# HELP mpl_provenance_log_synced_commits_total Commits those syncs made durable',
        '# TYPE mpl_provenance_log_synced_commits_total counter',
        `mpl_provenance_log_synced_commits_total ${logSyncs.commits}`,
        '# HELP mpl_provenance_log_sync_seconds_total Time spent syncing the provenance log',
        '# TYPE mpl_provenance_log_sync_seconds_total counter',
        `mpl_provenance_log_sync_seconds_total ${logSyncs.seconds}`,
      );
    return `${[
      this.requests,
      this.schemaValidations,
      this.qomEvaluations,
      this.calls,
      this.errors,
      this.provenanceEntries,
      this.handshakes,
      this.upstreamRequests,
    ]
      .map((counter) => counter.render())
      .concat(gauges)
      .join('\n')}\n`;
  }
}
