import type { JsonValue } from '@mtpx/protocol';
import type { ErrorDetail } from '../errors';
import type { ProvenanceEntry } from '../provenance/provenance';
import type { QomReport, QomScores } from '../qom/qom';
import type { DeliveredMessage, HandshakeSelect } from './wire';

/** What to send with `MplClient.call`. */
export interface CallOptions<TPayload = JsonValue> {
  payload: TPayload;
  /** Extra headers, such as `X-MPL-SType` and `X-MPL-Profile`, as the tutorial passes them. */
  headers?: Record<string, string>;
  /** The SType, instead of an `X-MPL-SType` header. */
  stype?: string;
  /** The QoM profile, instead of an `X-MPL-Profile` header. */
  profile?: string;
  /** Scores from outside judgement (groundedness, tool outcome correctness, …). */
  scores?: QomScores;
  signal?: AbortSignal;
}

/** Where an accepted message sits in its plan's provenance chain. */
export interface CallProvenanceInfo {
  planId: string | null;
  seq: number;
  parentHash: string | null;
  entryHash: string;
  timestamp: string;
}

/** The proxy's answer to `MplClient.call`. */
export interface CallResult {
  /** The payload (and its typed args) conform to their schemas. */
  valid: boolean;
  stype: string;
  /** The upstream service's answer, or the accepted payload when the proxy has no upstream. */
  data: JsonValue;
  semHash: string;
  qomPassed: boolean;
  qom: QomReport;
  provenance: CallProvenanceInfo;
  /** Schema problems of a message a transparent proxy let through. */
  errors: ErrorDetail[];
}

/** A plan's provenance chain, as `GET /provenance` answers. */
export interface ProvenanceChain {
  planId: string;
  chain: ProvenanceEntry[];
}

/**
 * What an `MplSession` needs of its client: an `MplClient` fits, and so does any
 * other transport that speaks the proxy's calls, handshake and message stream.
 */
export interface MplSessionClient {
  /** The AI-ALPN handshake: which of `stypes` the proxy knows, and which profile it picks. */
  handshake(options: {
    stypes: string[];
    profiles?: string[];
    signal?: AbortSignal;
  }): Promise<HandshakeSelect>;
  /** Sends one typed message through `POST /call`. */
  call(method: string, options: CallOptions<unknown>): Promise<CallResult>;
  /** The stream of accepted messages; `onReady` fires once the proxy has subscribed it. */
  messages(options?: {
    stypes?: string[];
    signal?: AbortSignal;
    onReady?: () => void;
  }): AsyncIterable<DeliveredMessage>;
}
