import type { JsonValue } from '@mtpx/protocol';
import type { ErrorDetail } from '../errors';
import type { AssertionResult } from '../qom/assertions';
import type { QomReport } from '../qom/qom';

/** The header naming a message's SType. @internal */
export const STYPE_HEADER = 'X-MPL-SType';
/** The header naming the QoM profile to judge by. @internal */
export const PROFILE_HEADER = 'X-MPL-Profile';
/** The response header carrying the semantic hash. @internal */
export const SEM_HASH_HEADER = 'X-MPL-Sem-Hash';
/** The response header carrying the QoM verdict: `pass` or `fail`. @internal */
export const QOM_RESULT_HEADER = 'X-MPL-QoM-Result';

/**
 * The body of `POST /call`: a method and a payload (the SType comes in `X-MPL-SType`).
 *
 * @internal
 */
export interface CallRequestBody {
  method: string;
  payload: JsonValue;
  /** Scores from outside judgement for the QoM profile (`groundedness`, `tool_outcome_correctness`, …). */
  scores?: { [metric: string]: number };
}

/** The provenance part of a `POST /call` answer. @internal */
export interface CallProvenance {
  plan_id: string | null;
  seq: number;
  parent_hash: string | null;
  entry_hash: string;
  timestamp: string;
}

/** The body of a successful `POST /call` answer, in wire form. @internal */
export interface CallResponseBody {
  valid: boolean;
  stype: string;
  sem_hash: string;
  qom: QomReport;
  provenance: CallProvenance;
  /** The upstream service's answer, or (without an upstream) the accepted payload. */
  data: JsonValue;
  /** Schema problems, when the proxy let an invalid message through (transparent mode). */
  errors: ErrorDetail[];
  /** `false` when nothing could be checked (an unknown SType let through in transparent mode). */
  validated?: false;
  /** Failed assertions of severity `warning` or `info`: reported, not blocking. */
  warnings?: AssertionResult[];
}

/** `GET /health` */
export interface HealthResponseBody {
  status: 'healthy';
  version: string;
}

/** `GET /capabilities` */
export interface CapabilitiesResponseBody {
  version: string;
  mpl_version: string;
  capabilities: { [name: string]: boolean };
  stypes: string[];
  profiles: string[];
  mode: 'strict' | 'transparent';
  hash_algorithm: string;
}

/** The client's half of the AI-ALPN handshake (`POST /.well-known/ai-alpn`). @internal */
export interface HandshakeHello {
  type: 'ai-alpn-hello';
  version: string;
  stypes: string[];
  qom_profiles?: string[];
}

/** The server's half of the AI-ALPN handshake. */
export interface HandshakeSelect {
  type: 'ai-alpn-select';
  common_stypes: string[];
  selected_profile: string | null;
  extensions: { [name: string]: JsonValue };
}

/** One accepted message as `GET /messages` streams it to sessions (Server-Sent Events). */
export interface DeliveredMessage {
  method: string | null;
  stype: string;
  payload: JsonValue;
  sem_hash: string;
  plan_id: string | null;
  seq: number;
  entry_hash: string;
  timestamp: string;
  qom_passed: boolean;
}
