import { readFileSync } from 'node:fs';
import { calculatorToolkit } from '@mtpx/executor/toolkits';
import { scriptedProvider } from '@mtpx/providers/testing';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../events/agent-events';
import { createAgent } from '../run/agent';
import { createRunView, type RunViewEvent, reduceRunView, runViewOf } from './reduce-run-view';
import { unknownEvent } from './unknown-event';

/** The events of a record (`pnpm demo -- --record`), header line left out. */
function recorded(name: string): RunViewEvent[] {
  return readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as RunViewEvent)
    .filter((event) => event.type !== undefined);
}

/** One response: a `$ref` chain (1 → 2 → 3), an aliased reference, and an independent call. */
const chain = {
  toolCalls: [
    { id: 'c1', name: 'calculator.subtract', arguments: { a: 18, b: 6 } },
    { id: 'c2', name: 'calculator.multiply', arguments: { a: 4, b: { $ref: 'c1' } } },
    { id: 'c3', name: 'calculator.divide', arguments: { a: { $ref: 'call_2' }, b: 3 } },
    { id: 'c4', name: 'calculator.add', arguments: { a: 1, b: 2 } },
  ],
  usage: { inputTokens: 100, outputTokens: 40, totalTokens: 140, reasoningTokens: 8 },
};

async function chainRun(stream: boolean): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  const agent = createAgent({
    provider: scriptedProvider(
      [
        { ...chain, reasoning: 'Subtract first.' },
        { text: '16', usage: { inputTokens: 150, outputTokens: 2, totalTokens: 152 } },
      ],
      { chunkDelayMs: 1, chunkSize: 24 },
    ),
    tools: [calculatorToolkit()],
    onEvent: (event) => events.push(event),
  });
  if (stream) await agent.stream('Compute.', { runId: 'run_chain' }).result;
  else await agent.run('Compute.', { runId: 'run_chain' });
  return events;
}

describe('runViewOf', () => {
  it('a recorded demo run: rounds, calls in response order, $ref edges, the answer', () => {
    const view = runViewOf(recorded('demo-run.jsonl'));
    expect(view).toMatchObject({
      runId: 'run_demo',
      status: 'finished',
      provider: 'scripted',
      model: 'offline-script',
      streaming: true,
      eagerDispatch: true,
      other: [],
    });
    expect(view.finalText).toMatch(/= 31\./);
    expect(view.stopReason).toBe('final');
    expect(view.rounds.map((round) => round.round)).toEqual([1, 2]);
    const [first, second] = view.rounds;
    expect(first?.calls.map((call) => [call.id, call.index, call.status])).toEqual([
      ['call_1', 0, 'succeeded'],
      ['call_2', 1, 'succeeded'],
      ['call_3', 2, 'succeeded'],
      ['call_4', 3, 'succeeded'],
      ['call_5', 4, 'succeeded'],
      ['call_6', 5, 'succeeded'],
    ]);
    expect(view.edges.map((edge) => `${edge.from}→${edge.to} ${edge.location}`)).toEqual([
      'call_1→call_2 /b',
      'call_2→call_3 /a',
      'call_3→call_4 /b',
      'call_5→call_6 /content',
    ]);
    // Three of the six calls started while the model was still writing (SOURCES.md).
    expect(first?.calls.filter((call) => call.startedDuringStream)).toHaveLength(3);
    expect(first?.calls.find((call) => call.id === 'call_4')?.resolvedArguments).toEqual({
      a: 15,
      b: 16,
    });
    expect(first?.modelEndAt).toBeCloseTo((first?.startAt ?? 0) + 707.266666);
    expect(second?.text).toBe(view.finalText);
    expect(second?.segments.map((segment) => segment.kind)).toEqual(['text']);
    for (const call of first?.calls ?? [])
      expect(call.phases.at(-1)).toMatchObject({ kind: 'running', endAt: call.endAt });
  });

  it.each([
    ['streamed', true],
    ['whole turns', false],
  ])(
    'a live %s run: references through aliases, resolved inputs, reasoning, usage',
    async (_name, stream) => {
      const view = runViewOf(await chainRun(stream));
      expect(view.status).toBe('finished');
      const [first] = view.rounds;
      const byId = new Map(first?.calls.map((call) => [call.id, call]));
      expect(byId.get('c3')).toMatchObject({
        aliases: { call_2: 'c2' },
        references: ['c2'],
        resolvedArguments: { a: 48, b: 3 },
        output: 16,
        status: 'succeeded',
        attempts: 1,
        approval: 'allow',
      });
      expect(byId.get('c3')?.toolCall?.arguments).toEqual({ a: { $ref: 'call_2' }, b: 3 });
      expect(first?.reasoning).toBe('Subtract first.');
      expect(first?.usage).toMatchObject({ reasoningTokens: 8 });
      expect(view.usage).toMatchObject({ inputTokens: 250, totalTokens: 292 });
      expect(view.rounds[1]?.text).toBe('16');
    },
  );

  it('a run cut short is a run in progress: calls in flight are running', async () => {
    const events = await chainRun(true);
    const cut = events.findIndex((event) => event.type === 'call-finished');
    const view = runViewOf(events.slice(0, cut));
    expect(view.status).toBe('running');
    expect(view.rounds[0]?.calls.find((call) => call.id === 'c1')?.status).toBe('running');
  });

  it('never changes the view it is given: each event makes a new one, unchanged parts shared', async () => {
    const events = await chainRun(true);
    let view = createRunView();
    const seen = [view];
    for (const event of events) {
      const frozen = JSON.stringify(view);
      const next = reduceRunView(view, event);
      expect(JSON.stringify(view)).toBe(frozen);
      view = next;
      seen.push(view);
    }
    expect(view).toEqual(runViewOf(events));
    const finishedFirst = seen.find((candidate) => candidate.rounds[0]?.endAt !== undefined);
    expect(view.rounds[0]).toBe(finishedFirst?.rounds[0]);
  });
});

describe('reduceRunView: each call event', () => {
  const base = { runId: 'r' };
  const events: RunViewEvent[] = [
    { ...base, type: 'round-started', at: 0, round: 1, messageCount: 2, tools: [] },
    { ...base, type: 'reasoning-delta', at: 1, round: 1, text: 'think ' },
    { ...base, type: 'reasoning-delta', at: 2, round: 1, text: 'hard' },
    { ...base, type: 'text-delta', at: 3, round: 1, delta: 'Writing.' },
    { ...base, type: 'server-tool-used', at: 3, round: 1, blockType: 'web_search', name: 'search' },
    {
      ...base,
      type: 'tool-call-ready',
      at: 4,
      round: 1,
      index: 0,
      toolCall: { id: 'w', name: 'file.write', arguments: { text: 'x' } },
      call: { id: 'w', name: 'file.write', arguments: { text: 'x' }, depends_on: [] },
      aliases: {},
      refused: false,
    },
    {
      ...base,
      type: 'call-held',
      at: 4,
      round: 1,
      callId: 'w',
      toolName: 'file.write',
      reason: 'risk level write',
    },
    {
      ...base,
      type: 'call-released',
      at: 8,
      round: 1,
      callId: 'w',
      toolName: 'file.write',
      heldMs: 4,
    },
    { ...base, type: 'call-started', at: 10, round: 1, callId: 'w', toolName: 'file.write' },
    { ...base, type: 'approval-requested', at: 11, round: 1, callId: 'w', toolName: 'file.write' },
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
      type: 'call-retried',
      at: 21,
      round: 1,
      callId: 'w',
      toolName: 'file.write',
      attempt: 1,
      delayMs: 1,
      error: 'blip',
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
      approval: 'ask',
      result: { call_id: 'w', tool_name: 'file.write', output: 'ok', success: true, cached: false },
    },
    { ...base, type: 'mystery-happened', at: 31, detail: 1 },
  ];

  it('held, released, started, approved, retried, progress, finished: phases in order, nothing overlapping', () => {
    const view = runViewOf(events);
    const [round] = view.rounds;
    expect(round?.segments).toEqual([
      { kind: 'reasoning', text: 'think hard', startAt: 1, endAt: 2 },
      { kind: 'text', text: 'Writing.', startAt: 3, endAt: 3 },
    ]);
    expect(round?.serverTools).toEqual([{ at: 3, blockType: 'web_search', name: 'search' }]);
    const call = round?.calls[0];
    expect(call).toMatchObject({
      status: 'succeeded',
      heldReason: 'risk level write',
      heldAt: 4,
      releasedAt: 8,
      approvalAskedAt: 11,
      approvalAnsweredAt: 20,
      approved: true,
      attempts: 2,
      retries: [{ at: 21, attempt: 1, delayMs: 1, error: 'blip' }],
      progress: [{ at: 22, message: 'input round 1', completed: 1, total: 2 }],
      output: 'ok',
    });
    expect(call?.phases.map((phase) => [phase.kind, phase.startAt, phase.endAt])).toEqual([
      ['held', 4, 8],
      ['waiting', 8, 10],
      ['approval', 11, 20],
      ['running', 20, 30],
    ]);
    expect(call?.events.map((event) => event.type)).toEqual([
      'call-held',
      'call-released',
      'call-started',
      'approval-requested',
      'approval-resolved',
      'call-retried',
      'call-progress',
      'call-finished',
    ]);
    expect(view.other).toEqual([{ ...base, type: 'mystery-happened', at: 31, detail: 1 }]);
  });

  it('an executor’s own events (no run, no round) land in a round of their own', () => {
    const view = runViewOf([
      { type: 'plan-started', at: 0, issues: [], callCount: 1 },
      { type: 'call-started', at: 1, callId: 'p1', toolName: 'calculator.add' },
      {
        type: 'call-skipped',
        at: 2,
        callId: 'p2',
        toolName: 'calculator.add',
        errorCode: 'dependency_failed',
        error: 'p1 failed',
        result: {
          call_id: 'p2',
          tool_name: 'calculator.add',
          output: null,
          success: false,
          cached: false,
        },
      },
    ]);
    expect(view.rounds).toHaveLength(1);
    expect(view.rounds[0]?.calls.map((call) => [call.id, call.status])).toEqual([
      ['p1', 'running'],
      ['p2', 'skipped'],
    ]);
    expect(view.rounds[0]?.calls[1]?.error).toBe('p1 failed');
  });

  it('a failed and a cancelled run', () => {
    const failed = runViewOf([
      { ...base, type: 'round-started', at: 0, round: 1, messageCount: 1, tools: [] },
      {
        ...base,
        type: 'run-failed',
        at: 5,
        error: new Error('boom'),
        code: 'stream_interrupted',
        message: 'boom',
        round: 1,
        toolResults: [],
        durationMs: 5,
      },
    ]);
    expect(failed).toMatchObject({
      status: 'failed',
      durationMs: 5,
      failure: { code: 'stream_interrupted', message: 'boom' },
    });
    const cancelled = reduceRunView(createRunView('r'), {
      ...base,
      type: 'run-cancelled',
      at: 3,
      reason: 'user stop',
      durationMs: 3,
      output: {
        run_id: 'r',
        final_text: '',
        messages: [],
        tool_results: [],
        rounds: 0,
        usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
        stop_reason: 'cancelled',
      },
    });
    expect(cancelled).toMatchObject({
      status: 'cancelled',
      cancelReason: 'user stop',
      usage: { totalTokens: 0 },
    });
  });
});

describe('unknownEvent', () => {
  it('a switch that leaves an event type out does not compile', () => {
    function rounds(event: AgentEvent): number {
      switch (event.type) {
        case 'round-started':
          return event.round;
        default:
          // @ts-expect-error every other event type is still possible here
          return unknownEvent(event) === undefined ? 0 : -1;
      }
    }
    expect(
      rounds({ runId: 'r', type: 'round-started', at: 0, round: 2, messageCount: 1, tools: [] }),
    ).toBe(2);
  });

  it('hands back an event this version does not know', () => {
    const later = { type: 'something-new', at: 1 };
    expect(unknownEvent(later as never)).toBe(later);
  });
});
