import { isJsonObject, type JsonValue, safeParseJson } from '@mtpx/protocol';
import {
  ConnectionError,
  createMplError,
  type ErrorDetail,
  isMplErrorCode,
  type MplError,
} from '../errors';
import type { ChainVerification } from '../provenance/provenance';
import type { STypeSummary } from '../registry/registry';
import type { CallOptions, CallResult, ProvenanceChain } from './call-types';
import { MplSession, type MplSessionOptions } from './mpl-session';
import { readServerSentEvents } from './sse';
import {
  type CallResponseBody,
  type CapabilitiesResponseBody,
  type DeliveredMessage,
  type HandshakeSelect,
  type HealthResponseBody,
  PROFILE_HEADER,
  STYPE_HEADER,
} from './wire';

/** How to reach an MPL proxy. */
export interface MplClientOptions {
  /** Bearer token, when the proxy requires one (`--token` / `MPL_TOKEN`). */
  token?: string;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /** A `fetch` to use instead of the global one (tests, proxies, instrumentation). */
  fetch?: typeof fetch;
}

/**
 * The client of an MPL proxy (`@mtpx/mpl-proxy`, `mpl serve`). Every failure is a typed
 * {@link MplError}: `SchemaFidelityError`, `QomBreachError`, `UnknownStypeError`, …, and
 * `ConnectionError` when the proxy cannot be reached.
 *
 * @example
 * ```ts source="./client.examples.ts#MplClient"
 * const client = new MplClient('http://127.0.0.1:9443');
 * const result = await client.call('agent.plan', {
 *   payload: plan,
 *   headers: { 'X-MPL-SType': 'org.agent.TaskPlan.v1' },
 * });
 * console.log(result.valid, result.semHash);
 * ```
 */
export class MplClient {
  readonly baseUrl: string;
  readonly #options: MplClientOptions;

  constructor(baseUrl: string, options: MplClientOptions = {}) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
    this.#options = options;
  }

  /** Sends one typed message through `POST /call`. */
  async call(method: string, options: CallOptions<unknown>): Promise<CallResult> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.stype) headers[STYPE_HEADER] = options.stype;
    if (options.profile) headers[PROFILE_HEADER] = options.profile;
    const body: Record<string, unknown> = { method, payload: options.payload };
    if (options.scores) body.scores = options.scores;
    const answer = (await this.#request('POST', '/call', {
      body,
      headers,
      signal: options.signal,
    })) as CallResponseBody;
    return {
      valid: answer.valid,
      stype: answer.stype,
      data: answer.data,
      semHash: answer.sem_hash,
      qomPassed: answer.qom.passed,
      qom: answer.qom,
      provenance: {
        planId: answer.provenance.plan_id,
        seq: answer.provenance.seq,
        parentHash: answer.provenance.parent_hash,
        entryHash: answer.provenance.entry_hash,
        timestamp: answer.provenance.timestamp,
      },
      errors: answer.errors ?? [],
    };
  }

  /** `GET /health` */
  async health(options: { signal?: AbortSignal } = {}): Promise<HealthResponseBody> {
    return (await this.#request('GET', '/health', options)) as HealthResponseBody;
  }

  /** `GET /capabilities`: version, STypes, profiles and mode. */
  async capabilities(options: { signal?: AbortSignal } = {}): Promise<CapabilitiesResponseBody> {
    return (await this.#request('GET', '/capabilities', options)) as CapabilitiesResponseBody;
  }

  /** The AI-ALPN handshake: which of `stypes` the proxy knows, and which profile it picks. */
  async handshake(options: {
    stypes: string[];
    profiles?: string[];
    signal?: AbortSignal;
  }): Promise<HandshakeSelect> {
    return (await this.#request('POST', '/.well-known/ai-alpn', {
      body: {
        type: 'ai-alpn-hello',
        version: '1.0',
        stypes: options.stypes,
        qom_profiles: options.profiles ?? [],
      },
      signal: options.signal,
    })) as HandshakeSelect;
  }

  /** A plan's provenance chain (with each stored payload when `payloads` is true). */
  async provenance(options: {
    planId: string;
    payloads?: boolean;
    signal?: AbortSignal;
  }): Promise<ProvenanceChain> {
    const query = new URLSearchParams({ planId: options.planId });
    if (options.payloads) query.set('payloads', 'true');
    return (await this.#request('GET', `/provenance?${query}`, options)) as ProvenanceChain;
  }

  /** The proxy's verdict on a plan's chain (`verifyChain` run where the entries live). */
  async verifyProvenance(options: {
    planId: string;
    signal?: AbortSignal;
  }): Promise<ChainVerification & { planId: string }> {
    const query = new URLSearchParams({ planId: options.planId });
    return (await this.#request(
      'GET',
      `/provenance/verify?${query}`,
      options,
    )) as ChainVerification & {
      planId: string;
    };
  }

  /** The registered STypes, optionally those under a namespace (`org.agent`). */
  async stypes(
    options: { namespace?: string; signal?: AbortSignal } = {},
  ): Promise<STypeSummary[]> {
    const query = options.namespace
      ? `?${new URLSearchParams({ namespace: options.namespace })}`
      : '';
    const answer = (await this.#request('GET', `/stypes${query}`, options)) as {
      stypes: STypeSummary[];
    };
    return answer.stypes;
  }

  /** One SType's definition: its schema, assertions and examples. */
  async stype(id: string, options: { signal?: AbortSignal } = {}): Promise<JsonValue> {
    return (await this.#request('GET', `/stypes/${encodeURIComponent(id)}`, options)) as JsonValue;
  }

  /**
   * The stream of accepted messages (`GET /messages`, Server-Sent Events), optionally only
   * those of some STypes. `onReady` fires once the proxy has subscribed this stream.
   */
  async *messages(
    options: { stypes?: string[]; signal?: AbortSignal; onReady?: () => void } = {},
  ): AsyncGenerator<DeliveredMessage> {
    const query = new URLSearchParams();
    for (const stype of options.stypes ?? []) query.append('stype', stype);
    const response = await this.#fetch('GET', `/messages${query.size > 0 ? `?${query}` : ''}`, {
      signal: options.signal,
      accept: 'text/event-stream',
    });
    if (!response.ok || !response.body) throw await errorFromResponse(response);
    try {
      for await (const event of readServerSentEvents(response.body)) {
        if (event.event === 'ready') options.onReady?.();
        if (event.event !== 'message') continue;
        const parsed = safeParseJson(event.data);
        if (parsed.ok && isJsonObject(parsed.value))
          yield parsed.value as unknown as DeliveredMessage;
      }
    } catch (error) {
      if (options.signal?.aborted) return;
      throw new ConnectionError({
        message: `The message stream from ${this.baseUrl} broke`,
        cause: error,
      });
    }
  }

  /**
   * A session: typed handlers per SType, fed by the proxy's message stream. Performs the
   * AI-ALPN handshake for `stypes` when given.
   */
  async createSession(options: MplSessionOptions = {}): Promise<MplSession> {
    const session = new MplSession(this, options);
    if (options.stypes && options.stypes.length > 0) await session.negotiate();
    return session;
  }

  async #fetch(
    method: string,
    path: string,
    options: {
      body?: unknown;
      headers?: Record<string, string>;
      signal?: AbortSignal | undefined;
      accept?: string;
    },
  ): Promise<Response> {
    const headers: Record<string, string> = {
      accept: options.accept ?? 'application/json',
      ...this.#options.headers,
      ...options.headers,
    };
    if (this.#options.token) headers.authorization = `Bearer ${this.#options.token}`;
    const init: RequestInit = { method, headers };
    if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      init.body = JSON.stringify(options.body);
    }
    if (options.signal) init.signal = options.signal;
    try {
      return await (this.#options.fetch ?? fetch)(`${this.baseUrl}${path}`, init);
    } catch (cause) {
      if (options.signal?.aborted) throw cause;
      throw new ConnectionError({
        message: `Cannot reach the MPL proxy at ${this.baseUrl}: ${cause instanceof Error ? cause.message : String(cause)}`,
        cause,
      });
    }
  }

  async #request(
    method: string,
    path: string,
    options: { body?: unknown; headers?: Record<string, string>; signal?: AbortSignal | undefined },
  ): Promise<unknown> {
    const response = await this.#fetch(method, path, options);
    if (!response.ok) throw await errorFromResponse(response);
    const parsed = safeParseJson(await response.text());
    if (!parsed.ok)
      throw new ConnectionError({
        message: `The MPL proxy at ${this.baseUrl} answered ${method} ${path} with something that is not JSON`,
        status: response.status,
        cause: parsed.error,
      });
    return parsed.value;
  }
}

/** The typed {@link MplError} of an error response in the reference shape. */
async function errorFromResponse(response: Response): Promise<MplError> {
  const text = await response.text().catch(() => '');
  const parsed = safeParseJson(text);
  if (parsed.ok && isJsonObject(parsed.value) && typeof parsed.value.error === 'string') {
    const body = parsed.value;
    const details = Array.isArray(body.details) ? (body.details as unknown as ErrorDetail[]) : [];
    const message = typeof body.message === 'string' ? body.message : `HTTP ${response.status}`;
    return createMplError(isMplErrorCode(body.error) ? body.error : 'E-INTERNAL', {
      message,
      details,
      status: response.status,
    });
  }
  return new ConnectionError({
    message: `The MPL proxy answered HTTP ${response.status} without an MPL error body${text ? `: ${text.slice(0, 200)}` : ''}`,
    status: response.status,
  });
}
