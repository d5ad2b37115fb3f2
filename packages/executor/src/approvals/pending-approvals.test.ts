import type { ToolCall, ToolResult } from '@mtpx/protocol';
import { describe, expect, it } from 'vitest';
import { eventLog, waitForEvent } from '../__fixtures__/test-tools';
import { createExecutor } from '../executor';
import type { ApproveHandler } from '../policy/risk-policy';
import { defineTool } from '../tools/define-tool';
import {
  type ApprovalAnswer,
  type ApprovalRequest,
  approvalIdOf,
  argumentsDigest,
  type WaitingCall,
} from './plan-approvals';

function tools(ran: string[]) {
  const tool = (name: string, risk: 'read_only' | 'write' | 'destructive') =>
    defineTool({
      name,
      description: `${name} (${risk})`,
      risk_level: risk,
      input_schema: { type: 'object', properties: { value: {} } },
      execute: ({ value }: { value?: unknown }) => {
        ran.push(name);
        return { tool: name, value: value ?? null };
      },
    });
  return [
    tool('doc.read', 'read_only'),
    tool('doc.summarise', 'read_only'),
    tool('doc.delete', 'destructive'),
    tool('doc.write', 'write'),
    tool('doc.notify', 'read_only'),
  ];
}

/** A `$ref` chain of reads, an independent destructive call, a write that needs the chain, and a call that needs the write. */
const response = [
  { id: 'read', name: 'doc.read', arguments: { value: 'draft' } },
  { id: 'summary', name: 'doc.summarise', arguments: { value: { $ref: 'read', $path: '/value' } } },
  { id: 'delete', name: 'doc.delete', arguments: { value: 'old' } },
  { id: 'write', name: 'doc.write', arguments: { value: { $ref: 'summary' } } },
  { id: 'notify', name: 'doc.notify', arguments: { value: { $ref: 'write', $path: '/tool' } } },
];

function run(options: {
  approve?: ApproveHandler;
  decided?: (request: ApprovalRequest) => ApprovalAnswer | undefined;
  deferrable?: boolean;
}) {
  const ran: string[] = [];
  const pending: ApprovalRequest[] = [];
  const waiting: WaitingCall[] = [];
  const recorded: string[] = [];
  const log = eventLog();
  const executor = createExecutor({
    tools: tools(ran),
    policy: { defaults: { write: 'ask' } },
    ...(options.approve === undefined ? {} : { approve: options.approve }),
  });
  const results = executor.executeToolCalls(response, {
    runId: 'run_1',
    onEvent: log.onEvent,
    onResult: (call: ToolCall) => recorded.push(call.id),
    ...(options.deferrable === false
      ? {}
      : {
          approvals: {
            ...(options.decided === undefined ? {} : { decided: options.decided }),
            pending: (request) => pending.push(request),
            waiting: (call) => waiting.push(call),
          },
        }),
  });
  return { results, ran, pending, waiting, recorded, log };
}

const codes = (results: ToolResult[]) => results.map((result) => result.error_code ?? 'ok');

describe('approvals decided outside the execution', () => {
  it('with no approver, the reads run and exactly the destructive call and the write are left pending; what needs the write waits', async () => {
    const { results, ran, pending, waiting, recorded, log } = run({});
    expect(codes(await results)).toEqual([
      'ok',
      'ok',
      'approval_required',
      'approval_required',
      'approval_required',
    ]);
    expect(ran.sort()).toEqual(['doc.read', 'doc.summarise']);
    expect(pending.map((request) => request.call.id).sort()).toEqual(['delete', 'write']);
    const write = pending.find((request) => request.call.id === 'write') as ApprovalRequest;
    // The request shows the arguments as the tool would get them, and what binds a decision.
    expect(write.arguments).toEqual({ value: { tool: 'doc.summarise', value: 'draft' } });
    expect(write.argumentsDigest).toBe(argumentsDigest(write.arguments));
    expect(write.approvalId).toBe(
      approvalIdOf('run_1', 'write', 'doc.write', write.argumentsDigest),
    );
    expect(write).toMatchObject({ runId: 'run_1', toolName: 'doc.write', riskLevel: 'write' });
    expect(write.reason).toContain('risk level write');
    expect(waiting).toEqual([{ callId: 'notify', toolName: 'doc.notify', waitsOn: 'write' }]);
    // A pending call is not a result to journal: only the reads were recorded.
    expect(recorded.sort()).toEqual(['read', 'summary']);
    const requested = log.events.find(
      (event) => event.type === 'approval-requested' && event.callId === 'write',
    );
    const resolved = log.events.find(
      (event) => event.type === 'approval-resolved' && event.callId === 'write',
    );
    expect(requested).toMatchObject({ approvalId: write.approvalId, riskLevel: 'write' });
    expect(resolved).toMatchObject({
      approvalId: write.approvalId,
      approved: false,
      pending: true,
    });
  });

  it('decisions made before (approve the write, deny the delete) run and refuse exactly those calls', async () => {
    const { results, ran, pending } = run({
      decided: (request) =>
        request.call.id === 'write'
          ? { approved: true }
          : { approved: false, reason: 'keep the old document' },
    });
    const output = await results;
    expect(codes(output)).toEqual(['ok', 'ok', 'denied', 'ok', 'ok']);
    expect(output[2]?.error).toContain('keep the old document');
    expect(output[4]?.output).toEqual({ tool: 'doc.notify', value: 'doc.write' });
    expect(ran).not.toContain('doc.delete');
    expect(pending).toEqual([]);
  });

  it("an approver answering 'defer' leaves the call pending; one answering true runs it", async () => {
    const { results, pending } = run({
      approve: (spec) => (spec.name === 'doc.delete' ? 'defer' : true),
    });
    expect(codes(await results)).toEqual(['ok', 'ok', 'approval_required', 'ok', 'ok']);
    expect(pending.map((request) => request.call.id)).toEqual(['delete']);
  });

  it("without `approvals`, 'defer' and a missing approver are answered approval_required for the model, and dependents fail", async () => {
    const deferring = run({ approve: () => 'defer', deferrable: false });
    const output = await deferring.results;
    expect(codes(output)).toEqual([
      'ok',
      'ok',
      'approval_required',
      'approval_required',
      'dependency_failed',
    ]);
    expect(output[2]?.error).toContain('cannot wait');
    const none = run({ deferrable: false });
    expect(codes(await none.results)[4]).toBe('dependency_failed');
  });

  it('a call added after the call it needs was left pending waits as well', async () => {
    const ran: string[] = [];
    const waiting: WaitingCall[] = [];
    const executor = createExecutor({ tools: tools(ran) });
    const settled = waitForEvent(
      (event) => event.type === 'call-finished' && event.callId === 'delete',
    );
    const execution = executor.start({
      onEvent: settled.handler,
      approvals: { pending: () => {}, waiting: (call) => waiting.push(call) },
    });
    execution.add({ id: 'delete', name: 'doc.delete', arguments: {} });
    await settled.promise;
    execution.add({ id: 'after', name: 'doc.notify', arguments: { value: { $ref: 'delete' } } });
    execution.end();
    expect(codes(await execution.results)).toEqual(['approval_required', 'approval_required']);
    expect(waiting).toEqual([{ callId: 'after', toolName: 'doc.notify', waitsOn: 'delete' }]);
  });
});
