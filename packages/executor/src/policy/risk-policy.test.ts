import type { Approval, RiskLevel, ToolSpec } from '@mtpx/protocol';
import { describe, expect, it, vi } from 'vitest';
import { eventLog } from '../__fixtures__/test-tools';
import { ExecutorError } from '../errors';
import { createExecutor } from '../executor';
import { defineTool } from '../tools/define-tool';
import { type ApproveHandler, RiskPolicy } from './risk-policy';

const spec = (name: string, risk_level: RiskLevel): ToolSpec => ({
  name,
  description: '',
  input_schema: {},
  tags: [],
  risk_level,
});

describe('RiskPolicy', () => {
  it('defaults: read_only and write allowed, destructive asks', () => {
    const policy = new RiskPolicy();
    expect(policy.decide(spec('a', 'read_only'))).toBe('allow');
    expect(policy.decide(spec('a', 'write'))).toBe('allow');
    expect(policy.decide(spec('a', 'destructive'))).toBe('ask');
  });

  it('per-risk defaults, whole-toolkit and exact-name overrides (exact wins)', () => {
    const policy = new RiskPolicy({
      defaults: { write: 'ask', destructive: 'deny' },
      tools: { 'file.*': 'deny', 'file.read_file': 'allow', 'db.drop': 'ask' },
    });
    expect(policy.decide(spec('notes.append', 'write'))).toBe('ask');
    expect(policy.decide(spec('db.truncate', 'destructive'))).toBe('deny');
    expect(policy.decide(spec('db.drop', 'destructive'))).toBe('ask');
    expect(policy.decide(spec('file.write_file', 'write'))).toBe('deny');
    expect(policy.decide(spec('file.read_file', 'read_only'))).toBe('allow');
  });

  it('rejects decisions that are not allow, ask or deny', () => {
    expect(() => new RiskPolicy({ defaults: { write: 'maybe' as Approval } })).toThrow(
      ExecutorError,
    );
    expect(() => new RiskPolicy({ tools: { x: 'yes' as Approval } })).toThrow(/tools\["x"\]/);
  });
});

describe('policy in the executor: the matrix', () => {
  const tool = (name: string, risk_level: RiskLevel) =>
    defineTool({
      name,
      description: name,
      risk_level,
      input_schema: { type: 'object' },
      execute: () => `${name} ran`,
    });
  const tools = [
    tool('t.read', 'read_only'),
    tool('t.write', 'write'),
    tool('t.destroy', 'destructive'),
  ];
  const calls = tools.map((item, index) => ({ id: `call_${index}`, name: item.name }));
  const summary = (results: Awaited<ReturnType<ReturnType<typeof createExecutor>['execute']>>) =>
    results.map((result) => [
      result.approval,
      result.success,
      result.skipped,
      result.error_code ?? null,
    ]);

  it('without an approver: destructive calls are skipped with approval_required', async () => {
    const results = await createExecutor({ tools }).executeToolCalls(calls);
    expect(summary(results)).toEqual([
      ['allow', true, false, null],
      ['allow', true, false, null],
      ['ask', false, true, 'approval_required'],
    ]);
    expect(results[2]?.error).toBe(
      '"t.destroy" (risk level destructive) needs approval and no approver is configured; it was not run.',
    );
  });

  it('an approver that says yes runs the call; no skips it as denied', async () => {
    for (const [answer, expected] of [
      [true, ['ask', true, false, null]],
      [false, ['ask', false, true, 'denied']],
    ] as const) {
      const approve = vi.fn(async () => answer);
      const results = await createExecutor({ tools, approve }).executeToolCalls(calls);
      expect(summary(results)[2]).toEqual(expected);
      expect(approve).toHaveBeenCalledOnce();
      expect(approve.mock.calls[0]?.slice(0, 3)).toEqual([
        expect.objectContaining({ name: 't.destroy', risk_level: 'destructive' }),
        expect.objectContaining({ id: 'call_2' }),
        {},
      ]);
    }
  });

  it('deny decisions skip the call with approval deny; the approver is not asked', async () => {
    const approve = vi.fn(() => true);
    const results = await createExecutor({
      tools,
      approve,
      policy: { defaults: { write: 'deny' }, tools: { 't.destroy': 'deny' } },
    }).executeToolCalls(calls);
    expect(summary(results)).toEqual([
      ['allow', true, false, null],
      ['deny', false, true, 'denied'],
      ['deny', false, true, 'denied'],
    ]);
    expect(results[1]?.error).toBe('Policy denies "t.write" (risk level write); it was not run.');
    expect(approve).not.toHaveBeenCalled();
  });

  it('an approver that throws leaves the call skipped (approval_required) and the others running', async () => {
    const results = await createExecutor({
      tools,
      approve: () => {
        throw new Error('approval UI unavailable');
      },
    }).executeToolCalls(calls);
    expect(summary(results)[2]).toEqual(['ask', false, true, 'approval_required']);
    expect(results[2]?.error).toContain('approval UI unavailable');
    expect(results[0]?.success).toBe(true);
  });

  it('approval gets the resolved arguments; a policy object may be passed as is', async () => {
    const approve = vi.fn<ApproveHandler>(() => true);
    const policy = { decide: () => 'ask' as const };
    const log = eventLog();
    const results = await createExecutor({ tools, approve, policy }).executeToolCalls(
      [
        { id: 'call_1', name: 't.read', arguments: { n: 1 } },
        { id: 'call_2', name: 't.write', arguments: { from: { $ref: 'call_1' } } },
      ],
      { onEvent: log.onEvent },
    );
    expect(results.map((result) => result.approval)).toEqual(['ask', 'ask']);
    expect(approve.mock.calls[1]?.[2]).toEqual({ from: 't.read ran' });
    const finished = log.events.filter((event) => event.type === 'call-finished');
    expect(finished.map((event) => event.approval)).toEqual(['ask', 'ask']);
  });
});
