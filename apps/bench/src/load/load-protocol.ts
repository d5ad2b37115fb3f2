/** What the bench asks its load process to do: one autocannon run against `url`. */
export interface LoadRequest {
  type: 'load';
  /** The target; with several, autocannon spreads the connections over them in turn. */
  url: string | string[];
  method: 'POST' | 'GET';
  headers: Record<string, string>;
  body?: string;
  durationSeconds: number;
  connections: number;
  /** Requests per second over all connections (autocannon's `overallRate`); as fast as answered when absent. */
  rate?: number;
}

/** What one autocannon run measured. */
export interface LoadReport {
  type: 'report';
  /** 2xx answers per second over the whole run. */
  requestsPerSecond: number;
  /** Latency percentiles of the 2xx answers, in milliseconds, at full resolution. */
  latencyP50Ms: number;
  latencyP99Ms: number;
  latencyMeanMs: number;
  completed: number;
  non2xx: number;
  errors: number;
  durationSeconds: number;
}

/** The load process failed: the message says why. */
export interface LoadFailure {
  type: 'failure';
  message: string;
}

export type LoadReply = LoadReport | LoadFailure;
