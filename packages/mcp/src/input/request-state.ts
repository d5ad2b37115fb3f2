import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { type JsonValue, safeParseJson } from '@mtpx/protocol';
import { z } from 'zod';
import { McpAdapterError } from '../errors';
import type { InputRequests } from './input-requests';
import type { InputResponse } from './input-responses';

/** What a request state is bound to: it verifies only for the same call. */
export interface StateBinding {
  /** `tools/call`, `prompts/get` or `resources/read`. */
  method: string;
  /** The tool or prompt name, or the resource URI. */
  target: string;
  /** Digest of the call's arguments (see `jsonDigest`). */
  argumentsDigest: string;
}

/** What the adapter carries from one round to the next, inside the signed state. */
export interface RoundState {
  /** The number of the round the state is for. */
  round: number;
  /** The requests the client must answer before that round runs. */
  pending: InputRequests;
  /** Answers already received for `pending` (when a client sent only some of them). */
  received: Record<string, InputResponse>;
  /** The last progress value sent for this call. */
  lastProgress?: number;
  /** The round hook's own state. */
  state?: JsonValue;
}

/** Why a state was refused (reported to `onError`, never sent to the client). */
export type StateRejection = 'malformed' | 'signature' | 'expired' | 'foreign';

/** Options of {@link createStateSigner}. */
export interface StateSignerOptions {
  /**
   * The HMAC-SHA256 key, at least 32 bytes (a string is UTF-8 encoded). Every server
   * instance that may receive a retried call needs the same key. Default: 32 random bytes,
   * which suits one process serving every round.
   */
  key?: string | Uint8Array;
  /** How long a state stays valid, in seconds. Default 600. */
  ttlSeconds?: number;
  /** The clock, in epoch milliseconds. Default `Date.now`. */
  now?: () => number;
}

/** Signs round states and verifies the ones clients echo back. */
export interface StateSigner {
  /** Seals `state` for the call `binding` describes. */
  mint(state: RoundState, binding: StateBinding): string;
  /** The state inside `token`, or why it was refused. */
  verify(
    token: string,
    binding: StateBinding,
  ): { ok: true; state: RoundState } | { ok: false; reason: StateRejection };
}

const FORMAT_TAG = 'mtpx-mcp-state.v1';
const MIN_KEY_BYTES = 32;

const EnvelopeSchema = z.object({
  m: z.string(),
  t: z.string(),
  d: z.string(),
  x: z.number(),
  r: z.number().int().positive(),
  q: z.record(z.string(), z.looseObject({ method: z.string() })),
  a: z.record(z.string(), z.looseObject({})),
  p: z.number().optional(),
  s: z.json().optional(),
});

/**
 * The request-state codec: HMAC-SHA256 over the state, the call it belongs to (method,
 * target, argument digest) and an expiry. Tampered, expired or foreign states fail to
 * verify; the state is signed, not encrypted, so it holds nothing secret.
 */
export function createStateSigner(options: StateSignerOptions = {}): StateSigner {
  const key = resolveKey(options.key);
  const ttlMilliseconds = (options.ttlSeconds ?? 600) * 1000;
  if (!(ttlMilliseconds > 0)) {
    throw new McpAdapterError({
      code: 'adapter_error',
      message: 'stateTtlSeconds must be above 0',
    });
  }
  const now = options.now ?? (() => Date.now());
  const sign = (payload: string) =>
    createHmac('sha256', key).update(`${FORMAT_TAG}.${payload}`).digest();

  return {
    mint(state, binding) {
      const envelope: z.input<typeof EnvelopeSchema> = {
        m: binding.method,
        t: binding.target,
        d: binding.argumentsDigest,
        x: now() + ttlMilliseconds,
        r: state.round,
        q: state.pending as unknown as Record<string, { method: string }>,
        a: state.received as Record<string, Record<string, unknown>>,
        ...(state.lastProgress !== undefined && { p: state.lastProgress }),
        ...(state.state !== undefined && { s: state.state }),
      };
      const payload = Buffer.from(JSON.stringify(envelope)).toString('base64url');
      return `${payload}.${sign(payload).toString('base64url')}`;
    },

    verify(token, binding) {
      const dot = token.lastIndexOf('.');
      if (dot <= 0) return { ok: false, reason: 'malformed' };
      const payload = token.slice(0, dot);
      const signature = Buffer.from(token.slice(dot + 1), 'base64url');
      const expected = sign(payload);
      if (signature.length !== expected.length || !timingSafeEqual(signature, expected)) {
        return { ok: false, reason: 'signature' };
      }
      const json = safeParseJson(Buffer.from(payload, 'base64url').toString('utf8'));
      const parsed = json.ok ? EnvelopeSchema.safeParse(json.value) : undefined;
      if (parsed === undefined || !parsed.success) return { ok: false, reason: 'malformed' };
      const envelope = parsed.data;
      if (envelope.x <= now()) return { ok: false, reason: 'expired' };
      if (
        envelope.m !== binding.method ||
        envelope.t !== binding.target ||
        envelope.d !== binding.argumentsDigest
      ) {
        return { ok: false, reason: 'foreign' };
      }
      return {
        ok: true,
        state: {
          round: envelope.r,
          pending: envelope.q as unknown as InputRequests,
          received: envelope.a as unknown as Record<string, InputResponse>,
          ...(envelope.p !== undefined && { lastProgress: envelope.p }),
          ...(envelope.s !== undefined && { state: envelope.s as JsonValue }),
        },
      };
    },
  };
}

function resolveKey(key: string | Uint8Array | undefined): Buffer {
  if (key === undefined) return randomBytes(MIN_KEY_BYTES);
  const bytes = typeof key === 'string' ? Buffer.from(key, 'utf8') : Buffer.from(key);
  if (bytes.length < MIN_KEY_BYTES) {
    throw new McpAdapterError({
      code: 'adapter_error',
      message: `stateKey must be at least ${MIN_KEY_BYTES} bytes (got ${bytes.length}); generate one with crypto.randomBytes(32).`,
    });
  }
  return bytes;
}
