import { createHash } from 'node:crypto';
import { canonicalJson, type JsonValue } from '@mtpx/protocol';

/**
 * The idempotency key of a call: `idem_` + hex SHA-256 of the canonical JSON of
 * `[runId ?? '', callId, args]`, where `args` are the call's arguments with every `$ref`
 * resolved. It depends on nothing else (not the attempt, the process or the clock), so a
 * retry, a call re-run on another worker and a resumed run all see the same key.
 *
 * @example
 * ```ts source="./idempotency-key.examples.ts#idempotencyKeyOf"
 * const key = idempotencyKeyOf('run_1', 'call_1', { to: 'ada@example.com' });
 * key.startsWith('idem_'); // true
 * ```
 */
export function idempotencyKeyOf(
  runId: string | undefined,
  callId: string,
  args: JsonValue | undefined,
): string {
  // Arguments that canonical JSON cannot write (never the case for a parsed call) key as null.
  const canonical =
    canonicalJson([runId ?? '', callId, args ?? null]) ??
    canonicalJson([runId ?? '', callId, null]);
  return `idem_${createHash('sha256')
    .update(canonical as string)
    .digest('hex')}`;
}
