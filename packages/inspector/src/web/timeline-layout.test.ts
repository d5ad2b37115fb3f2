import { describe, expect, it } from 'vitest';
import { seedRunEvents } from '../__fixtures__/seed-run';
import { buildRunView } from '../view/run-model';
import { layoutRound } from './timeline-layout';

describe('layoutRound', () => {
  it('a row for the model and each call, one edge per $ref, all on one axis', async () => {
    const view = buildRunView('run_seed', await seedRunEvents());
    const round = view.rounds[0];
    if (round === undefined) throw new Error('no round');
    const layout = layoutRound(round, view.lastAt, { width: 600 });
    expect(layout.rows.map((row) => row.key)).toEqual([
      'model',
      'call_1',
      'call_2',
      'call_3',
      'call_4',
      'call_5',
      'call_6',
    ]);
    expect(layout.edges.map((edge) => `${edge.from}->${edge.to}`)).toEqual([
      'call_1->call_2',
      'call_2->call_3',
      'call_3->call_4',
      'call_5->call_6',
    ]);
    for (const row of layout.rows)
      for (const segment of row.segments) {
        expect(segment.x).toBeGreaterThanOrEqual(0);
        expect(segment.x + segment.width).toBeLessThanOrEqual(602);
      }
    // An edge runs from the end of the referenced call to the start of the call using it.
    const edge = layout.edges[0];
    const used = layout.rows.find((row) => row.key === 'call_2');
    expect(edge?.x2).toBeCloseTo(
      used?.segments.find((segment) => segment.kind === 'running')?.x ?? -1,
      5,
    );
    expect(layout.modelEndX).toBeGreaterThan(0);
    expect(layout.rows.find((row) => row.key === 'call_1')?.startedDuringStream).toBe(true);
  });

  it('a shared axis (two runs side by side) scales both the same', async () => {
    const view = buildRunView('run_seed', await seedRunEvents());
    const round = view.rounds[0];
    if (round === undefined) throw new Error('no round');
    const wide = layoutRound(round, view.lastAt, {
      width: 600,
      fromMs: round.startAt,
      toMs: round.startAt + 100_000,
    });
    const model = wide.rows[0]?.segments[0];
    expect(model?.width).toBeLessThan(60);
    expect(wide.ticks.at(-1)?.label).toBe('100000 ms');
  });

  it('lays out a call with input rounds as a lane under it', () => {
    const view = buildRunView('r', [
      { type: 'round-started', at: 0, round: 1 },
      { type: 'call-started', at: 1, round: 1, callId: 'book', toolName: 'mcp.book' },
      {
        type: 'call-progress',
        at: 5,
        round: 1,
        callId: 'book',
        toolName: 'mcp.book',
        progress: { message: 'asked for a date' },
      },
      {
        type: 'call-finished',
        at: 9,
        round: 1,
        callId: 'book',
        toolName: 'mcp.book',
        durationMs: 8,
        success: true,
        cached: false,
        result: { output: 1 },
      },
    ]);
    const round = view.rounds[0];
    if (round === undefined) throw new Error('no round');
    const layout = layoutRound(round, view.lastAt, { width: 100 });
    expect(layout.rows.map((row) => row.key)).toEqual(['model', 'book', 'book lane']);
    expect(layout.rows[2]?.label).toBe('↳ input rounds');
    expect(layout.rows[2]?.marks).toEqual([
      { x: expect.any(Number), label: 'asked for a date', type: 'progress' },
    ]);
  });
});
