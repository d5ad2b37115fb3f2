import { type Child, ms, s } from './dom';
import type { RoundLayout } from './timeline-layout';

const LABEL_WIDTH = 230;
const TOP = 22;

/** Words for each segment kind, for the legend and for tooltips. */
export const SEGMENT_WORDS: Record<string, string> = {
  model: 'model writing',
  waiting: 'waiting for inputs',
  held: 'held until the turn ends',
  approval: 'waiting for approval',
  running: 'running',
  cached: 'cached',
  error: 'failed',
  skipped: 'skipped',
};

/**
 * A round's chart as SVG: a label column, the model's stream and every call on one time
 * axis, `$ref` edges as arrows from the referenced call's end to the using call's start,
 * a dashed line where the model finished writing, and calls that started while it was
 * still writing marked `⚡`.
 */
export function timelineSvg(
  layout: RoundLayout,
  options: { title: string; selected?: string },
): SVGSVGElement {
  const width = LABEL_WIDTH + layout.width + 90;
  const height = TOP + layout.height + 8;
  const rows: Child[] = layout.rows.map((row) => {
    const y = TOP + row.y;
    const mid = y + layout.rowHeight / 2;
    const isCall = row.call !== undefined;
    return s(
      'g',
      {
        class: `row${isCall ? ' call-row' : ''}${row.key === options.selected ? ' selected' : ''}`,
        'data-row': row.key,
        'data-status': row.call?.status,
      },
      s('rect', { class: 'row-band', x: 0, y, width, height: layout.rowHeight }),
      s(
        'text',
        { class: 'row-label', x: 8, y: mid + 4 },
        row.label.length > 27 ? `${row.label.slice(0, 26)}…` : row.label,
      ),
      row.startedDuringStream
        ? s(
            'text',
            {
              class: 'during-stream',
              x: LABEL_WIDTH - 16,
              y: mid + 4,
              'data-during-stream': 'true',
            },
            s('title', {}, 'started while the model was still writing'),
            '⚡',
          )
        : null,
      row.segments.map((segment) =>
        s(
          'rect',
          {
            class: `segment segment-${segment.kind}`,
            x: LABEL_WIDTH + segment.x,
            y: y + 5,
            width: segment.width,
            height: layout.rowHeight - 10,
            rx: 2,
          },
          s(
            'title',
            {},
            `${SEGMENT_WORDS[segment.kind] ?? segment.kind}: ${ms(segment.endAt - segment.startAt)}`,
          ),
        ),
      ),
      row.marks.map((mark) =>
        s(
          'g',
          { class: `mark mark-${mark.type}` },
          s('circle', { cx: LABEL_WIDTH + mark.x, cy: mid, r: 4 }),
          s('title', {}, mark.label),
        ),
      ),
      row.call?.endAt !== undefined
        ? s(
            'text',
            { class: 'row-note', x: LABEL_WIDTH + layout.width + 6, y: mid + 4 },
            ms((row.call.endAt ?? 0) - (row.call.startAt ?? row.call.endAt ?? 0)),
          )
        : null,
    );
  });
  const edges = layout.edges.map((edge) => {
    const x1 = LABEL_WIDTH + edge.x1;
    const x2 = LABEL_WIDTH + edge.x2;
    const y1 = TOP + edge.y1;
    const y2 = TOP + edge.y2;
    const bend = Math.max(12, Math.abs(x2 - x1) / 2);
    return s(
      'path',
      {
        class: 'ref-edge',
        'data-edge': `${edge.from}->${edge.to}`,
        d: `M ${x1} ${y1} C ${x1 + bend} ${y1}, ${x2 - bend} ${y2}, ${x2} ${y2}`,
        'marker-end': 'url(#arrow)',
      },
      s('title', {}, `${edge.to} uses ${edge.from} ($ref)`),
    );
  });
  const svg = s(
    'svg',
    {
      class: 'timeline',
      viewBox: `0 0 ${width} ${height}`,
      // Scales down to its column (two runs side by side), never up past its own size.
      width: '100%',
      role: 'img',
      'aria-label': options.title,
    },
    s(
      'defs',
      {},
      s(
        'marker',
        {
          id: 'arrow',
          viewBox: '0 0 8 8',
          refX: 7,
          refY: 4,
          markerWidth: 7,
          markerHeight: 7,
          orient: 'auto-start-reverse',
        },
        s('path', { d: 'M 0 0 L 8 4 L 0 8 z', class: 'arrow-head' }),
      ),
    ),
    layout.ticks.map((tick) =>
      s(
        'g',
        { class: 'tick' },
        s('line', { x1: LABEL_WIDTH + tick.x, x2: LABEL_WIDTH + tick.x, y1: TOP - 4, y2: height }),
        s(
          'text',
          {
            x: LABEL_WIDTH + tick.x,
            y: 12,
            'text-anchor': tick.x === 0 ? 'start' : tick.x >= layout.width ? 'end' : 'middle',
          },
          tick.label,
        ),
      ),
    ),
    rows,
    layout.modelEndX === undefined
      ? null
      : s(
          'line',
          {
            class: 'model-end',
            x1: LABEL_WIDTH + layout.modelEndX,
            x2: LABEL_WIDTH + layout.modelEndX,
            y1: TOP,
            y2: height,
          },
          s('title', {}, 'the model finished writing'),
        ),
    edges,
  );
  // CSSOM, not a style attribute: the Inspector's CSP allows no inline styles.
  svg.style.maxWidth = `${width}px`;
  return svg;
}

/** The legend under a chart. */
export function legend(): HTMLElement {
  const element = document.createElement('p');
  element.className = 'legend';
  for (const kind of [
    'model',
    'waiting',
    'held',
    'approval',
    'running',
    'cached',
    'error',
    'skipped',
  ]) {
    const swatch = document.createElement('span');
    swatch.className = `swatch segment-${kind}`;
    const item = document.createElement('span');
    item.className = 'legend-item';
    item.append(swatch, SEGMENT_WORDS[kind] ?? kind);
    element.append(item);
  }
  const bolt = document.createElement('span');
  bolt.className = 'legend-item';
  bolt.textContent = '⚡ started while the model was writing · → $ref edge';
  element.append(bolt);
  return element;
}
