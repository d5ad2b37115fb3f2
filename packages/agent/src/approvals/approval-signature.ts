import { createHmac, timingSafeEqual } from 'node:crypto';
import { canonicalJson } from '@mtpx/protocol';
import { AgentError } from '../agent-error';

/** What an approval signature binds: the run, the call, the tool and the arguments' digest. */
export interface SignedApprovalFields {
  approvalId: string;
  runId: string;
  callId: string;
  toolName: string;
  argumentsDigest: string;
}

/** A secret for approval signatures: at least 16 bytes. */
export type ApprovalSecret = string | Uint8Array;

/**
 * The signature of an approval request: `hmac-sha256:` + hex HMAC-SHA256, keyed by
 * `secret`, of the canonical JSON of `[approvalId, runId, callId, toolName,
 * argumentsDigest]`. A client that never saw the secret cannot make one for another
 * call, other arguments or another run.
 */
export function approvalSignature(secret: ApprovalSecret, fields: SignedApprovalFields): string {
  const text = canonicalJson([
    fields.approvalId,
    fields.runId,
    fields.callId,
    fields.toolName,
    fields.argumentsDigest,
  ]) as string;
  return `hmac-sha256:${createHmac('sha256', secret).update(text).digest('hex')}`;
}

/** True when `signature` is the signature of `fields` (compared in constant time). */
export function signatureMatches(
  secret: ApprovalSecret,
  fields: SignedApprovalFields,
  signature: unknown,
): boolean {
  if (typeof signature !== 'string') return false;
  const expected = Buffer.from(approvalSignature(secret, fields));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** The agent's `approvalSecret`, checked: a string or bytes of at least 16 bytes. */
export function approvalSecretOf(secret: unknown): ApprovalSecret | undefined {
  if (secret === undefined) return undefined;
  const length =
    typeof secret === 'string'
      ? Buffer.byteLength(secret)
      : secret instanceof Uint8Array
        ? secret.byteLength
        : -1;
  if (length < 16) {
    throw new AgentError({
      code: 'invalid_option',
      message: 'approvalSecret must be a string or bytes of at least 16 bytes.',
    });
  }
  return secret as ApprovalSecret;
}
