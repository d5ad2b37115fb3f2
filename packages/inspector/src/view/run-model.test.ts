import { describe, expect, it } from 'vitest';
import { seedRunEvents } from '../__fixtures__/seed-run';
import { buildRunView, referencesIn, resolveWith } from '../index';

describe('buildRunView', () => {
  it('places a streamed run: rounds, calls in response order, $refs, resolved arguments, usage', async () => {
    const view = buildRunView('run_seed', await seedRunEvents());
    expect(view).toMatchObject({
      status: 'finished',
      finalText: '31',
      stopReason: 'final',
      model: 'scripted',
    });
    expect(view.rounds).toHaveLength(2);
    const [first] = view.rounds;
    expect(first?.calls.map((call) => call.id)).toEqual([
      'call_1',
      'call_2',
      'call_3',
      'call_4',
      'call_5',
      'call_6',
    ]);
    const byId = new Map(first?.calls.map((call) => [call.id, call]));
    expect(byId.get('call_3')).toMatchObject({
      references: ['call_2'],
      arguments: { a: { $ref: 'call_2' }, b: 3 },
      resolvedArguments: { a: 48, b: 3 },
      output: 16,
      status: 'ok',
      attempts: 1,
      approval: 'allow',
    });
    expect(byId.get('call_1')?.startedDuringStream).toBe(true);
    expect(byId.get('call_1')?.segments.map((segment) => segment.kind)).toContain('running');
    expect(first?.usage).toMatchObject({ inputTokens: 100, reasoningTokens: 8 });
    expect(view.usage).toMatchObject({ inputTokens: 250, totalTokens: 292 });
    expect(first?.modelEndAt).toBeGreaterThan(first?.startAt ?? 0);
    expect(view.rounds[1]?.text).toBe('31');
  });

  it('a partial run: calls in flight are running, the run has no end', async () => {
    const events = await seedRunEvents();
    const cut = events.findIndex((event) => event.type === 'call-finished');
    const view = buildRunView('run_seed', events.slice(0, cut));
    expect(view.status).toBe('running');
    expect(view.rounds[0]?.calls.find((call) => call.id === 'call_1')?.status).toBe('running');
  });

  it('approvals, held calls, progress, reasoning and server tools by name; anything else kept as is', () => {
    const base = { runId: 'r' };
    const view = buildRunView('r', [
      {
        ...base,
        type: 'run-started',
        at: 0,
        input: 'x',
        provider: 'p',
        model: 'm',
        streaming: true,
        eagerDispatch: true,
      },
      { ...base, type: 'round-started', at: 0, round: 1 },
      { ...base, type: 'reasoning-delta', at: 1, round: 1, text: 'think ' },
      { ...base, type: 'reasoning-delta', at: 2, round: 1, text: 'hard' },
      {
        ...base,
        type: 'server-tool-used',
        at: 3,
        round: 1,
        blockType: 'web_search',
        name: 'search',
      },
      {
        ...base,
        type: 'tool-call-ready',
        at: 4,
        round: 1,
        index: 0,
        toolCall: { id: 'w', name: 'file.write', arguments: {} },
        call: { id: 'w', name: 'file.write', arguments: {}, depends_on: [] },
        refused: false,
      },
      {
        ...base,
        type: 'call-held',
        at: 4,
        round: 1,
        callId: 'w',
        reason: 'write waits for the turn',
      },
      { ...base, type: 'call-started', at: 10, round: 1, callId: 'w', toolName: 'file.write' },
      {
        ...base,
        type: 'approval-requested',
        at: 11,
        round: 1,
        callId: 'w',
        toolName: 'file.write',
      },
      {
        ...base,
        type: 'approval-resolved',
        at: 20,
        round: 1,
        callId: 'w',
        toolName: 'file.write',
        approved: true,
        waitMs: 9,
      },
      {
        ...base,
        type: 'call-progress',
        at: 22,
        round: 1,
        callId: 'w',
        toolName: 'file.write',
        progress: { message: 'input round 1', completed: 1, total: 2 },
      },
      {
        ...base,
        type: 'call-finished',
        at: 30,
        round: 1,
        callId: 'w',
        toolName: 'file.write',
        durationMs: 20,
        success: true,
        cached: false,
        result: { output: 'ok' },
      },
      { ...base, type: 'mystery-happened', at: 31, detail: 1 },
    ]);
    const [round] = view.rounds;
    expect(round?.reasoning).toBe('think hard');
    expect(round?.serverTools).toEqual([{ at: 3, blockType: 'web_search', name: 'search' }]);
    const call = round?.calls[0];
    expect(call?.segments.map((segment) => [segment.kind, segment.startAt, segment.endAt])).toEqual(
      [
        ['held', 4, 10],
        ['approval', 11, 20],
        ['running', 20, 30],
      ],
    );
    expect(call?.lane.map((mark) => mark.type)).toEqual([
      'held',
      'approval',
      'approval',
      'progress',
    ]);
    expect(call?.lane[3]?.label).toBe('input round 1 1/2');
    expect(view.other).toEqual([{ ...base, type: 'mystery-happened', at: 31, detail: 1 }]);
  });

  it('references and their resolution, $path included', () => {
    expect(referencesIn({ a: { $ref: 'x' }, b: [{ $ref: 'y' }, { $ref: 'x' }] })).toEqual([
      'x',
      'y',
    ]);
    const outputs = new Map<string, unknown>([['x', { list: [1, { deep: 'z' }] }]]);
    expect(
      resolveWith({ v: { $ref: 'x', $path: '/list/1/deep' }, w: { $ref: 'unknown' } }, outputs),
    ).toEqual({
      v: 'z',
      w: { $ref: 'unknown' },
    });
  });
});
