import { z } from 'zod';
import { MtpxError } from './errors';
import { type SafeResult, safeParseJson } from './json';
import { MTP_VERSION } from './version';

/** A versioned wrapper around any MTP message. */
export const MessageEnvelopeSchema = z.object({
  mtp_version: z.string().min(1),
  /** What the payload is (`plan`, `result`, `cancel`, …). */
  kind: z.string().min(1),
  payload: z.unknown(),
  metadata: z.record(z.string(), z.unknown()).default({}),
});

/** A versioned wrapper around any MTP message. */
export interface MessageEnvelope<TKind extends string = string, TPayload = unknown> {
  mtp_version: string;
  kind: TKind;
  payload: TPayload;
  metadata: Record<string, unknown>;
}

/**
 * Wraps a payload in an envelope of the current {@link MTP_VERSION}.
 *
 * @example
 * ```ts source="./protocol.examples.ts#createEnvelope"
 * const envelope = createEnvelope('cancel', { run_id: 'run_1' });
 * JSON.stringify(envelope); // {"mtp_version":"0.1.0","kind":"cancel","payload":{"run_id":"run_1"},"metadata":{}}
 * ```
 */
export function createEnvelope<TKind extends string, TPayload>(
  kind: TKind,
  payload: TPayload,
  metadata: Record<string, unknown> = {},
): MessageEnvelope<TKind, TPayload> {
  return { mtp_version: MTP_VERSION, kind, payload, metadata };
}

/** Why envelope text was refused. */
export type EnvelopeErrorCode = 'invalid_json' | 'unsupported_version' | 'invalid_envelope';

const markerName = 'mtpx.error.EnvelopeError';
const marker = Symbol.for(markerName);

/** Envelope text that is not JSON, not an envelope, or of a version this runtime does not speak. */
export class EnvelopeError extends MtpxError<EnvelopeErrorCode> {
  protected readonly [marker] = true;

  /** The text as received, so nothing is lost. */
  readonly text: string;

  constructor(options: {
    code: EnvelopeErrorCode;
    message: string;
    text: string;
    cause?: unknown;
  }) {
    super(options);
    this.name = 'EnvelopeError';
    this.text = options.text;
  }

  static override isInstance(error: unknown): error is EnvelopeError {
    return MtpxError.hasMarker(error, markerName);
  }
}

/**
 * True when an envelope of `version` can be read by this runtime: the same major and
 * minor version (in 0.x, a minor version may break the wire format).
 */
export function isCompatibleVersion(version: string): boolean {
  const [major, minor] = MTP_VERSION.split('.');
  const parts = version.split('.');
  return (
    parts.length === 3 && parts[0] === major && parts[1] === minor && /^\d+$/.test(parts[2] ?? '')
  );
}

/**
 * Parses envelope text without throwing: bad JSON, a wrong shape and an incompatible
 * `mtp_version` each give a typed {@link EnvelopeError} that keeps the text.
 *
 * @example
 * ```ts source="./protocol.examples.ts#parseEnvelope"
 * const parsed = parseEnvelope(line);
 * if (parsed.ok) handle(parsed.value.kind, parsed.value.payload);
 * else console.error(parsed.error.code, parsed.error.message);
 * ```
 */
export function parseEnvelope(text: string): SafeResult<MessageEnvelope, EnvelopeError> {
  const json = safeParseJson(text);
  if (!json.ok) {
    return {
      ok: false,
      error: new EnvelopeError({
        code: 'invalid_json',
        message: json.error.message,
        text,
        cause: json.error,
      }),
    };
  }
  const parsed = MessageEnvelopeSchema.safeParse(json.value);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .map(
        (issue) => `${issue.path.length > 0 ? issue.path.join('.') : 'envelope'}: ${issue.message}`,
      )
      .join('; ');
    return {
      ok: false,
      error: new EnvelopeError({
        code: 'invalid_envelope',
        message: `Not an MTP envelope (${problems}).`,
        text,
        cause: parsed.error,
      }),
    };
  }
  if (!isCompatibleVersion(parsed.data.mtp_version)) {
    return {
      ok: false,
      error: new EnvelopeError({
        code: 'unsupported_version',
        message: `The envelope speaks MTP ${parsed.data.mtp_version}; this runtime speaks ${MTP_VERSION}.`,
        text,
      }),
    };
  }
  return { ok: true, value: parsed.data };
}
