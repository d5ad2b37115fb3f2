import { createHash } from 'node:crypto';
import { canonicalJson } from '@mtpx/protocol';
import { describe, expect, it } from 'vitest';
import { RemoteToolError } from './errors';
import { RetryableCallError, retryDelayOf } from './retry-delay';
import { jobIdOf, parseJobData, parseJobResult } from './wire';

describe('job ids', () => {
  it('are the same for the same run and call, different otherwise, and free of ":"', () => {
    const id = jobIdOf('run_1', 'call_1');
    expect(id).toMatch(/^call-[0-9a-f]{40}$/);
    expect(jobIdOf('run_1', 'call_1')).toBe(id);
    expect(jobIdOf('run_1', 'call_2')).not.toBe(id);
    expect(jobIdOf('run_2', 'call_1')).not.toBe(id);
    // The digest is over the canonical JSON of [runId, callId] (ids of jobs already in Redis stay valid).
    for (const [runId, callId] of [
      ['run_1', 'call_1'],
      ['run "quoted" \\ é \u2028', 'call\n1'],
    ] as const) {
      const digest = createHash('sha256')
        .update(canonicalJson([runId, callId]) as string)
        .digest('hex');
      expect(jobIdOf(runId, callId)).toBe(`call-${digest.slice(0, 40)}`);
    }
    // No run id, no identity: every dispatch is a job of its own.
    expect(jobIdOf(undefined, 'call_1')).not.toBe(jobIdOf(undefined, 'call_1'));
  });
});

describe('the wire shapes', () => {
  it('accept what this package writes', () => {
    const data = {
      tool: 'a.b',
      callId: 'call_1',
      runId: null,
      args: { x: 1 },
      idempotencyKey: 'idem_1',
    };
    expect(parseJobData(data)).toEqual(data);
    expect(parseJobResult({ ok: true, content: [1] })).toEqual({ ok: true, content: [1] });
    expect(parseJobResult({ ok: false, code: 'denied', message: 'no' })).toMatchObject({
      ok: false,
    });
  });

  it('refuse anything else with invalid_job', () => {
    const refused = [
      () =>
        parseJobData({ tool: 'a.b', callId: 'call_1', args: [], idempotencyKey: 'k', runId: null }),
      () => parseJobData('call'),
      () => parseJobResult({ ok: 'yes' }),
    ];
    for (const parse of refused) {
      expect(parse).toThrow(RemoteToolError);
      try {
        parse();
      } catch (error) {
        expect(RemoteToolError.isInstance(error) && error.code).toBe('invalid_job');
      }
    }
  });
});

describe('retry delays', () => {
  it("follow the executor's rule, or the tool's own wait", () => {
    const delay = retryDelayOf({ initialDelayMs: 100, factor: 3, maxDelayMs: 500 });
    expect([1, 2, 3].map((attemptsMade) => delay(attemptsMade))).toEqual([100, 300, 500]);
    expect(delay(1, 'mtpx', new RetryableCallError('busy', 42))).toBe(42);
    expect(retryDelayOf()(1)).toBe(200);
  });
});
