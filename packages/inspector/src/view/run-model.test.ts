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

  // Regressions of the Inspector's own copy of the run rules, gone with the agent's run view.
  describe('what the run view fixed', () => {
    const base = { runId: 'r', round: 1 };
    const ready = (id: string, args: unknown, executed = args, aliases = {}) => ({
      ...base,
      type: 'tool-call-ready',
      at: 1,
      index: 0,
      toolCall: { id, name: 't', arguments: args },
      call: { id, name: 't', arguments: executed, depends_on: [] },
      aliases,
      refused: false,
    });
    const finished = (id: string, at: number, output: unknown) => ({
      ...base,
      type: 'call-finished',
      at,
      callId: id,
      toolName: 't',
      durationMs: 1,
      success: true,
      cached: false,
      result: { call_id: id, tool_name: 't', output, success: true, cached: false },
    });

    it('a held call shows its hold, then its wait for inputs: the wait bar no longer covers the hold', () => {
      const view = buildRunView('r', [
        { ...base, type: 'round-started', at: 0 },
        ready('w', { text: 'x' }),
        {
          ...base,
          type: 'call-held',
          at: 2,
          callId: 'w',
          toolName: 't',
          reason: 'risk level write',
        },
        { ...base, type: 'call-released', at: 8, callId: 'w', toolName: 't', heldMs: 6 },
        { ...base, type: 'call-started', at: 10, callId: 'w', toolName: 't' },
        finished('w', 12, 'ok'),
      ]);
      const segments = view.rounds[0]?.calls[0]?.segments;
      expect(segments?.map((segment) => [segment.kind, segment.startAt, segment.endAt])).toEqual([
        ['held', 2, 8],
        ['waiting', 8, 10],
        ['running', 10, 12],
      ]);
    });

    it('resolves the call as executed: a positional alias names the output too', () => {
      const view = buildRunView('r', [
        { ...base, type: 'round-started', at: 0 },
        ready('c1', { a: 1 }),
        { ...base, type: 'call-started', at: 2, callId: 'c1', toolName: 't' },
        finished('c1', 3, 12),
        ready('c2', { b: { $ref: 'call_1' } }, { b: { $ref: 'c1' } }, { call_1: 'c1' }),
        { ...base, type: 'call-started', at: 4, callId: 'c2', toolName: 't' },
      ]);
      const call = view.rounds[0]?.calls[1];
      expect(call?.arguments).toEqual({ b: { $ref: 'call_1' } });
      expect(call?.resolvedArguments).toEqual({ b: 12 });
    });

    it('an object with keys beside $ref (a JSON Schema) is not a reference', () => {
      const view = buildRunView('r', [
        { ...base, type: 'round-started', at: 0 },
        ready('s', { schema: { $ref: '#/defs/x', type: 'object' }, v: { $ref: 'c1' } }),
      ]);
      expect(view.rounds[0]?.calls[0]?.references).toEqual(['c1']);
    });
  });
});
