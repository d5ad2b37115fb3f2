import type { MplEngine, MplPolicy, ProvenanceStore } from '@mtpx/mpl';
import type { JsonValue } from '@mtpx/protocol';
import type { ProxyMetrics } from '../proxy-metrics';
import type { MessageHub } from './message-hub';

/** What the `/call` route needs from the proxy. @internal */
export interface CallRouteContext {
  engine: MplEngine;
  store: ProvenanceStore;
  hub: MessageHub;
  metrics: ProxyMetrics;
  mode: 'strict' | 'transparent';
  maxBodyBytes: number;
  upstream: string | undefined;
  upstreamTimeoutMs: number;
  /** The policy every call is checked against first, when one is configured. */
  policy?: MplPolicy | undefined;
}

/** A `/call` request, read. */
export interface ParsedCall {
  method: string | null;
  stype: string;
  payload: JsonValue;
  profile: string | undefined;
  scores: Record<string, number> | undefined;
  declaredHash: string | undefined;
}
