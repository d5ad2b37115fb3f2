import picocolors from 'picocolors';
import { describe, expect, it } from 'vitest';
import { drawGantt, ganttBar, ganttTicks } from './gantt';

const plain = picocolors.createColors(false);
const axis = { fromMs: 0, toMs: 1000, width: 20 };

describe('the round chart', () => {
  it('puts overlapping calls side by side on one axis', () => {
    const lines = drawGantt(
      [
        { label: 'model', startAt: 0, endAt: 500, kind: 'model', note: 'streamed' },
        { label: 'call_1', readyAt: 200, startAt: 200, endAt: 400, kind: 'ok', note: '→ 12' },
        { label: 'call_2', readyAt: 250, startAt: 400, endAt: 600, kind: 'ok', note: '→ 48' },
        { label: 'call_5', readyAt: 450, startAt: 450, endAt: 650, kind: 'ok', note: '"…"' },
      ],
      axis,
      plain,
    );
    expect(lines).toEqual([
      '          0    0.25     1.00 s',
      '  model   ▒▒▒▒▒▒▒▒▒▒            streamed',
      '  call_1      ████              → 12',
      '  call_2       ···████          → 48',
      '  call_5           ████         "…"',
    ]);
  });

  it('gives an instant call one column and a call that never ran its mark', () => {
    expect(
      ganttBar({ label: 'x', startAt: 500, endAt: 500, kind: 'cached', note: '' }, axis),
    ).toEqual({
      waiting: ' '.repeat(10),
      span: '░',
      pad: ' '.repeat(9),
    });
    expect(
      ganttBar({ label: 'x', readyAt: 100, startAt: 300, kind: 'skipped', note: '' }, axis).span,
    ).toBe('×');
  });

  it('labels the axis in milliseconds since the round started, in one unit', () => {
    expect(ganttTicks({ fromMs: 0, toMs: 800, width: 40 })).toBe(
      '0         200       400       600 800 ms',
    );
    expect(ganttTicks({ fromMs: 100, toMs: 1300, width: 40 })).toBe(
      '0         0.30      0.60          1.20 s',
    );
  });

  it('always keeps the end label, even on a narrow axis', () => {
    const ticks = ganttTicks({ fromMs: 0, toMs: 1014, width: 24 });
    expect(ticks).toBe('0     0.25  0.51  1.01 s');
    expect(ticks).toHaveLength(24);
  });
});
