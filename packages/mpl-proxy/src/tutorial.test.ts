import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type HandledMessage, MplClient, semanticHash, verifyChain } from '@mtpx/mpl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  invocationId,
  planId,
  reasoning,
  taskPlan,
  toolInvocation,
  toolResult,
} from './__fixtures__/tutorial';
import type { RunningProxy } from './proxy-options';
import { startProxy } from './server';

let proxy: RunningProxy;
let client: MplClient;

beforeAll(async () => {
  proxy = await startProxy({ port: 0, dataDir: await mkdtemp(join(tmpdir(), 'mpl-tutorial-')) });
  client = new MplClient(proxy.url);
});
afterAll(() => proxy.close());

describe('the MPL tutorial through the real proxy', () => {
  it('planner → reasoning → invocation → result makes a 4-entry chain with correct parent links', async () => {
    const profile = { 'X-MPL-Profile': 'qom-strict-argcheck' };
    const plan = await client.call('agent.plan', {
      payload: taskPlan,
      headers: { 'X-MPL-SType': 'org.agent.TaskPlan.v1', ...profile },
    });
    expect(plan).toMatchObject({ valid: true, qomPassed: true, semHash: semanticHash(taskPlan) });
    expect(plan.provenance).toMatchObject({ planId, seq: 1, parentHash: null });

    const thought = await client.call('agent.reason', {
      payload: reasoning,
      headers: { 'X-MPL-SType': 'ai.agent.Reasoning.v1', ...profile },
    });
    expect(thought.provenance.parentHash).toBe(plan.semHash);

    const invocation = await client.call('agent.invoke_tool', {
      payload: toolInvocation,
      headers: { 'X-MPL-SType': 'org.agent.ToolInvocation.v1', ...profile },
    });
    expect(invocation).toMatchObject({ valid: true, data: toolInvocation });
    expect(invocation.provenance.parentHash).toBe(thought.semHash);

    const result = await client.call('agent.tool_result', {
      payload: toolResult,
      headers: { 'X-MPL-SType': 'org.agent.ToolResult.v1', ...profile },
    });
    expect(result).toMatchObject({ valid: true, qomPassed: true });
    expect(result.provenance).toMatchObject({ planId, seq: 4, parentHash: invocation.semHash });

    const { chain } = await client.provenance({ planId });
    expect(
      chain.map((entry) => [
        entry.stype,
        entry.sem_hash,
        entry.parent_hash,
        entry.qom_profile,
        entry.qom_passed,
      ]),
    ).toEqual([
      ['org.agent.TaskPlan.v1', plan.semHash, null, 'qom-strict-argcheck', true],
      ['ai.agent.Reasoning.v1', thought.semHash, plan.semHash, 'qom-strict-argcheck', true],
      [
        'org.agent.ToolInvocation.v1',
        invocation.semHash,
        thought.semHash,
        'qom-strict-argcheck',
        true,
      ],
      ['org.agent.ToolResult.v1', result.semHash, invocation.semHash, 'qom-strict-argcheck', true],
    ]);
    expect(chain[3]?.invocation_id).toBe(invocationId);
    expect(await client.verifyProvenance({ planId })).toMatchObject({
      planId,
      valid: true,
      length: 4,
    });
    expect(verifyChain((await client.provenance({ planId, payloads: true })).chain).valid).toBe(
      true,
    );
  });

  it('delivers accepted messages to a session with typed handlers', async () => {
    const session = await client.createSession({
      stypes: ['org.agent.TaskPlan.v1', 'org.agent.ToolResult.v1'],
    });
    expect(session.negotiated?.common_stypes).toEqual([
      'org.agent.TaskPlan.v1',
      'org.agent.ToolResult.v1',
    ]);
    const replies: HandledMessage[] = [];
    const controller = new AbortController();
    session.onMessage('org.agent.TaskPlan.v1', async (message) => ({
      status: 'accepted',
      planId: message.payload.planId,
    }));
    session.onMessage('org.agent.ToolResult.v1', async (message) =>
      message.payload.status === 'error' ? { action: 'retry' } : { action: 'continue' },
    );
    let markReady: () => void = () => {};
    const ready = new Promise<void>((resolve) => {
      markReady = resolve;
    });
    const running = session.run({
      signal: controller.signal,
      onReady: () => markReady(),
      onHandled: (handled) => {
        replies.push(handled);
        if (replies.length === 2) controller.abort();
      },
    });
    await ready;
    const otherPlan = { ...taskPlan, planId: '6a1f3c2e-1111-4c1d-9a2b-3c4d5e6f7a8b' };
    await client.call('agent.plan', { payload: otherPlan, stype: 'org.agent.TaskPlan.v1' });
    await client.call('agent.reason', {
      payload: { ...reasoning, planId: otherPlan.planId },
      stype: 'ai.agent.Reasoning.v1',
    });
    await client.call('agent.tool_result', {
      payload: { ...toolResult, status: 'error', error: { code: 'TOOL_TIMEOUT', message: 'late' } },
      stype: 'org.agent.ToolResult.v1',
    });
    const summary = await running;
    expect(summary).toEqual({ handled: 2, unhandled: 0, invalid: 0, failed: 0 });
    expect(
      replies.map((handled) => (handled.status === 'handled' ? handled.reply : undefined)),
    ).toEqual([{ status: 'accepted', planId: otherPlan.planId }, { action: 'retry' }]);
  });
});
