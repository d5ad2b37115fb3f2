import type { JsonValue } from '@mtpx/protocol';
import {
  BUILTIN_PAYLOAD_SCHEMAS,
  type BuiltinPayloads,
  isBuiltinSTypeId,
} from '../registry/payloads';
import type { CallOptions, CallResult, MplSessionClient } from './call-types';
import type { DeliveredMessage, HandshakeSelect } from './wire';

/** A message handed to a session handler: the delivery, with a typed payload. */
export interface MplSessionMessage<TPayload = JsonValue> extends Omit<DeliveredMessage, 'payload'> {
  payload: TPayload;
}

/** A session handler: its return value is reported as the message's reply. */
export type MessageHandler<TPayload = JsonValue> = (
  message: MplSessionMessage<TPayload>,
) => unknown | Promise<unknown>;

/** What happened to one delivered message. */
export type HandledMessage =
  | { status: 'handled'; message: DeliveredMessage; reply: unknown }
  /** No handler is registered for its SType. */
  | { status: 'unhandled'; message: DeliveredMessage }
  /** A built-in SType whose payload does not match its zod type (possible in transparent mode). */
  | { status: 'invalid'; message: DeliveredMessage; error: Error }
  /** The handler threw. */
  | { status: 'failed'; message: DeliveredMessage; error: unknown };

/** Options of `MplClient.createSession`. */
export interface MplSessionOptions {
  /** STypes to negotiate with the proxy when the session is created (AI-ALPN handshake). */
  stypes?: string[];
  /** QoM profile to ask for in the handshake. */
  profile?: string;
}

/** Options of {@link MplSession.run}. */
export interface MplSessionRunOptions {
  /** Stops the session; `run` then resolves. */
  signal?: AbortSignal;
  /** Called once the proxy has subscribed the session: messages sent after it are delivered. */
  onReady?: () => void;
  /** Called after each message with what became of it. */
  onHandled?: (handled: HandledMessage) => void;
  /** Messages to handle instead of the proxy's stream (another transport, a replay, a test). */
  source?: AsyncIterable<DeliveredMessage>;
}

/** What a finished {@link MplSession.run} handled. */
export interface MplSessionRunSummary {
  handled: number;
  unhandled: number;
  invalid: number;
  failed: number;
}

/**
 * An MPL session: the stateful, event-driven agent session the MPL tutorial describes
 * (not `@mtpx/agent`'s conversation `Session`): register a
 * handler per SType with {@link MplSession.onMessage} (payloads of the built-in STypes are
 * typed and checked with zod), then {@link MplSession.run} dispatches every accepted message
 * the proxy streams. Handlers run one at a time, in arrival order.
 *
 * @example
 * ```ts source="./client.examples.ts#MplSession"
 * const session = await client.createSession();
 * session.onMessage('org.agent.TaskPlan.v1', async (message) => {
 *   console.log(`Received plan: ${message.payload.goal}`);
 *   return { status: 'accepted', planId: message.payload.planId };
 * });
 * await session.run({ signal });
 * ```
 */
export class MplSession {
  /** Where the session's calls, handshake and messages go (the `MplClient` that made it). */
  readonly client: MplSessionClient;
  readonly options: MplSessionOptions;
  readonly #handlers = new Map<string, MessageHandler<never>>();
  /** The proxy's answer to the handshake, once {@link MplSession.negotiate} ran. */
  negotiated: HandshakeSelect | undefined;

  constructor(client: MplSessionClient, options: MplSessionOptions = {}) {
    this.client = client;
    this.options = options;
  }

  /** Registers the handler of a built-in SType; its payload arrives typed. */
  onMessage<K extends keyof BuiltinPayloads>(
    stype: K,
    handler: MessageHandler<BuiltinPayloads[K]>,
  ): this;
  /** Registers the handler of any SType. */
  onMessage(stype: string, handler: MessageHandler): this;
  onMessage(stype: string, handler: MessageHandler<never>): this {
    this.#handlers.set(stype, handler);
    return this;
  }

  /** The STypes that have handlers. */
  get stypes(): string[] {
    return [...this.#handlers.keys()];
  }

  /** Runs the AI-ALPN handshake for the session's STypes (options, else its handlers). */
  async negotiate(options: { signal?: AbortSignal } = {}): Promise<HandshakeSelect> {
    const request: { stypes: string[]; profiles?: string[]; signal?: AbortSignal } = {
      stypes: this.options.stypes ?? this.stypes,
    };
    if (this.options.profile) request.profiles = [this.options.profile];
    if (options.signal) request.signal = options.signal;
    this.negotiated = await this.client.handshake(request);
    return this.negotiated;
  }

  /** Sends a message through the proxy, as `MplClient.call` does. */
  call(method: string, options: CallOptions<unknown>): Promise<CallResult> {
    return this.client.call(method, options);
  }

  /** Hands one delivered message to its handler. Never throws: the outcome says what happened. */
  async dispatch(message: DeliveredMessage): Promise<HandledMessage> {
    const handler = this.#handlers.get(message.stype) as MessageHandler | undefined;
    if (!handler) return { status: 'unhandled', message };
    let payload: unknown = message.payload;
    if (isBuiltinSTypeId(message.stype)) {
      const parsed = BUILTIN_PAYLOAD_SCHEMAS[message.stype].safeParse(message.payload);
      if (!parsed.success) return { status: 'invalid', message, error: parsed.error };
      payload = parsed.data;
    }
    try {
      const reply = await handler({ ...message, payload: payload as JsonValue });
      return { status: 'handled', message, reply };
    } catch (error) {
      return { status: 'failed', message, error };
    }
  }

  /**
   * Dispatches messages until `signal` aborts or the stream ends. Subscribes to the
   * proxy's stream for the STypes that have handlers, unless a `source` is given.
   */
  async run(options: MplSessionRunOptions = {}): Promise<MplSessionRunSummary> {
    const summary: MplSessionRunSummary = { handled: 0, unhandled: 0, invalid: 0, failed: 0 };
    const streamOptions: { stypes: string[]; signal?: AbortSignal; onReady?: () => void } = {
      stypes: this.stypes,
    };
    if (options.signal) streamOptions.signal = options.signal;
    if (options.onReady) streamOptions.onReady = options.onReady;
    const source = options.source ?? this.client.messages(streamOptions);
    if (options.source) options.onReady?.();
    try {
      for await (const message of source) {
        if (options.signal?.aborted) break;
        const handled = await this.dispatch(message);
        summary[handled.status] += 1;
        options.onHandled?.(handled);
      }
    } catch (error) {
      if (!options.signal?.aborted) throw error;
    }
    return summary;
  }
}

/** @deprecated Use {@link MplSession}; removed in the next minor. */
export const Session = MplSession;
/** @deprecated Use {@link MplSession}; removed in the next minor. */
export type Session = MplSession;
/** @deprecated Use {@link MplSessionOptions}; removed in the next minor. */
export type SessionOptions = MplSessionOptions;
/** @deprecated Use {@link MplSessionMessage}; removed in the next minor. */
export type SessionMessage<TPayload = JsonValue> = MplSessionMessage<TPayload>;
/** @deprecated Use {@link MplSessionRunOptions}; removed in the next minor. */
export type SessionRunOptions = MplSessionRunOptions;
/** @deprecated Use {@link MplSessionRunSummary}; removed in the next minor. */
export type SessionRunSummary = MplSessionRunSummary;
