import type { CallView, RoundView } from '../view/run-model';

/** One bar of a row: a segment of a call's life, or the model writing. */
export interface LaidSegment {
  kind: 'model' | 'waiting' | 'held' | 'approval' | 'running' | 'cached' | 'error' | 'skipped';
  x: number;
  width: number;
  startAt: number;
  endAt: number;
}

/** One row of a round's chart. */
export interface LaidRow {
  /** `model`, a call id, or `<call id> lane` for a call's input rounds. */
  key: string;
  label: string;
  y: number;
  segments: LaidSegment[];
  /** Points in time on the row (input rounds, retries, approvals). */
  marks: Array<{ x: number; label: string; type: string }>;
  call?: CallView;
  startedDuringStream: boolean;
}

/** A `$ref` edge: from the end of the referenced call's bar to the start of the call that used it. */
export interface LaidEdge {
  from: string;
  to: string;
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/**
 * A round laid out on a time axis of `width` pixels.
 *
 * @internal
 */
export interface RoundLayout {
  fromMs: number;
  toMs: number;
  width: number;
  rowHeight: number;
  height: number;
  rows: LaidRow[];
  edges: LaidEdge[];
  ticks: Array<{ x: number; label: string }>;
  /** Where the model finished writing (the stream's end), when known. */
  modelEndX?: number;
}

/** Options of {@link layoutRound}. */
export interface LayoutOptions {
  width: number;
  rowHeight?: number;
  /** The axis, to draw several rounds (or runs) on one scale; default: this round's span. */
  fromMs?: number;
  toMs?: number;
}

/**
 * The time this round's chart must cover: from its start to its last known moment.
 *
 * @internal
 */
export function roundSpan(round: RoundView, lastAt: number): { fromMs: number; toMs: number } {
  const ends = [round.endAt ?? lastAt, round.modelEndAt ?? 0];
  for (const call of round.calls) ends.push(call.endAt ?? lastAt);
  return { fromMs: round.startAt, toMs: Math.max(round.startAt + 1, ...ends) };
}

/**
 * Lays a round out: the model's row, then a row per call in the response's order (and a
 * lane under a call that had input rounds or other marks), segments scaled onto the
 * axis, `$ref` edges between rows, and ticks. Pure, so it is tested without a browser.
 *
 * @internal
 */
export function layoutRound(round: RoundView, lastAt: number, options: LayoutOptions): RoundLayout {
  const span = roundSpan(round, lastAt);
  const fromMs = options.fromMs ?? span.fromMs;
  const toMs = Math.max(fromMs + 1, options.toMs ?? span.toMs);
  const { width } = options;
  const rowHeight = options.rowHeight ?? 26;
  const x = (at: number) =>
    ((Math.min(Math.max(at, fromMs), toMs) - fromMs) / (toMs - fromMs)) * width;
  const bar = (kind: LaidSegment['kind'], startAt: number, endAt: number): LaidSegment => {
    const x0 = x(startAt);
    return { kind, x: x0, width: Math.max(2, x(endAt) - x0), startAt, endAt };
  };
  const rows: LaidRow[] = [];
  const modelEnd = round.modelEndAt ?? (round.endAt === undefined ? lastAt : round.endAt);
  rows.push({
    key: 'model',
    label: 'model writing',
    y: 0,
    segments: [bar('model', round.startAt, modelEnd)],
    marks: round.serverTools.map((tool) => ({
      x: x(tool.at),
      label: tool.name ?? tool.blockType ?? 'server tool',
      type: 'server-tool',
    })),
    startedDuringStream: false,
  });
  const calls = [...round.calls].sort(
    (a, b) => (a.index ?? Number.MAX_SAFE_INTEGER) - (b.index ?? Number.MAX_SAFE_INTEGER),
  );
  for (const call of calls) {
    const segments = call.segments.map((segment) =>
      bar(segment.kind, segment.startAt, segment.endAt),
    );
    if (call.status === 'running' && call.startAt !== undefined)
      segments.push(bar('running', call.startAt, lastAt));
    if (call.status === 'skipped')
      segments.push(
        bar('skipped', call.endAt ?? lastAt, (call.endAt ?? lastAt) + (toMs - fromMs) / 100),
      );
    if (call.status === 'pending' && call.readyAt !== undefined)
      segments.push(bar('waiting', call.readyAt, lastAt));
    rows.push({
      key: call.id,
      label: `${call.id} ${call.name}`,
      y: rows.length * rowHeight,
      segments,
      marks: [],
      call,
      startedDuringStream: call.startedDuringStream,
    });
    if (call.lane.length > 0)
      rows.push({
        key: `${call.id} lane`,
        label: `↳ ${call.lane.some((mark) => mark.type === 'progress') ? 'input rounds' : 'events'}`,
        y: rows.length * rowHeight,
        segments: [],
        marks: call.lane.map((mark) => ({ x: x(mark.at), label: mark.label, type: mark.type })),
        startedDuringStream: false,
      });
  }
  const rowOf = new Map(rows.map((row) => [row.key, row]));
  const edges: LaidEdge[] = [];
  for (const call of calls) {
    const target = rowOf.get(call.id);
    if (target === undefined) continue;
    for (const reference of call.references) {
      const source = rowOf.get(reference);
      if (source?.call === undefined) continue; // a call of an earlier round
      edges.push({
        from: reference,
        to: call.id,
        x1: x(source.call.endAt ?? lastAt),
        y1: source.y + rowHeight / 2,
        x2: x(call.startAt ?? call.readyAt ?? lastAt),
        y2: target.y + rowHeight / 2,
      });
    }
  }
  // A narrow chart (a column of a comparison) gets fewer labels, so none collide.
  const ticks = (width < 420 ? [0, 0.5, 1] : [0, 0.25, 0.5, 0.75, 1]).map((fraction) => ({
    x: fraction * width,
    label: `${Math.round((toMs - fromMs) * fraction + (fromMs - round.startAt))} ms`,
  }));
  const layout: RoundLayout = {
    fromMs,
    toMs,
    width,
    rowHeight,
    height: rows.length * rowHeight,
    rows,
    edges,
    ticks,
  };
  if (round.modelEndAt !== undefined) layout.modelEndX = x(round.modelEndAt);
  return layout;
}
