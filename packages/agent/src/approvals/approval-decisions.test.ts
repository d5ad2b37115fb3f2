import { describe, expect, it } from 'vitest';
import { AgentError } from '../agent-error';
import { type ApprovalLedger, checkDecisions } from './approval-decisions';
import { approvalSignature, signatureMatches } from './approval-signature';
import type { JournaledApproval } from './pending-approval';

const approval = (id: string, callId: string, digest: string): JournaledApproval => ({
  approval_id: id,
  call_id: callId,
  tool_name: 'doc.write',
  arguments: { text: 'x' },
  arguments_digest: digest,
  risk_level: 'write',
  reason: 'risk level write',
  references: [],
  waiting: [],
  round: 1,
  requested_at: new Date(0).toISOString(),
});

const ledger: ApprovalLedger = {
  runId: 'run_1',
  pending: [approval('apr_a', 'call_a', 'd1'), approval('apr_b', 'call_b', 'd2')],
  used: ['apr_old'],
};

const secret = 'a secret of at least sixteen bytes';
const signed = (id: string, callId: string, digest: string) =>
  approvalSignature(secret, {
    approvalId: id,
    runId: 'run_1',
    callId,
    toolName: 'doc.write',
    argumentsDigest: digest,
  });

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return AgentError.isInstance(error) ? error.code : 'not an AgentError';
  }
  return undefined;
}

describe('checkDecisions', () => {
  it('answers each pending approval decided, approved or denied with its reason', () => {
    const answers = checkDecisions(
      ledger,
      [
        { approvalId: 'apr_a', approved: true, callId: 'call_a', argumentsDigest: 'd1' },
        { approvalId: 'apr_b', approved: false, reason: 'not today' },
      ],
      undefined,
    );
    expect(Object.fromEntries(answers)).toEqual({
      apr_a: { approved: true },
      apr_b: { approved: false, reason: 'not today' },
    });
  });

  it.each([
    [
      'an approval the run never asked for',
      [{ approvalId: 'apr_x', approved: true }],
      'approval_invalid',
    ],
    ['a replayed decision', [{ approvalId: 'apr_old', approved: true }], 'approval_used'],
    [
      'another call',
      [{ approvalId: 'apr_a', approved: true, callId: 'call_b' }],
      'approval_mismatch',
    ],
    [
      'other arguments',
      [{ approvalId: 'apr_a', approved: true, argumentsDigest: 'd2' }],
      'approval_mismatch',
    ],
    [
      'one approval decided twice',
      [
        { approvalId: 'apr_a', approved: true },
        { approvalId: 'apr_a', approved: false },
      ],
      'approval_invalid',
    ],
    ['not a list', { approvalId: 'apr_a', approved: true }, 'approval_invalid'],
    [
      'a decision without a boolean',
      [{ approvalId: 'apr_a', approved: 'yes' }],
      'approval_invalid',
    ],
  ])('refuses %s', (_name, decisions, code) => {
    expect(codeOf(() => checkDecisions(ledger, decisions, undefined))).toBe(code);
  });

  it('with a secret, takes only decisions signed for this run, call, tool and arguments', () => {
    const good = {
      approvalId: 'apr_a',
      approved: true,
      signature: signed('apr_a', 'call_a', 'd1'),
    };
    expect(checkDecisions(ledger, [good], secret).get('apr_a')).toEqual({ approved: true });
    const cases = [
      { approvalId: 'apr_a', approved: true },
      { approvalId: 'apr_a', approved: true, signature: signed('apr_a', 'call_a', 'd2') },
      { approvalId: 'apr_a', approved: true, signature: signed('apr_b', 'call_b', 'd2') },
      { approvalId: 'apr_a', approved: true, signature: `${good.signature.slice(0, -1)}0` },
    ];
    for (const forged of cases) {
      expect(codeOf(() => checkDecisions(ledger, [forged], secret))).toBe('approval_invalid');
    }
  });

  it('a signature is bound to every field it covers', () => {
    const fields = {
      approvalId: 'apr_a',
      runId: 'run_1',
      callId: 'call_a',
      toolName: 'doc.write',
      argumentsDigest: 'd1',
    };
    const signature = approvalSignature(secret, fields);
    expect(signature).toMatch(/^hmac-sha256:[0-9a-f]{64}$/);
    expect(signatureMatches(secret, fields, signature)).toBe(true);
    for (const key of Object.keys(fields) as Array<keyof typeof fields>) {
      expect(signatureMatches(secret, { ...fields, [key]: 'other' }, signature)).toBe(false);
    }
    expect(signatureMatches('another secret entirely', fields, signature)).toBe(false);
    expect(signatureMatches(secret, fields, undefined)).toBe(false);
  });
});
