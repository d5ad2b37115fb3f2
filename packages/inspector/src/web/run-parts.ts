import type { CallView, RoundView, RunView } from '../view/run-model';
import { h, ms, pretty } from './dom';
import { layoutRound } from './timeline-layout';
import { legend, timelineSvg } from './timeline-svg';

/** The facts line of a round: its calls, how many started during the stream, its time. */
export function roundFacts(round: RoundView): string {
  const started = round.calls.filter((call) => call.startedDuringStream).length;
  const parts = [
    round.calls.length === 0
      ? 'text answer'
      : `${round.calls.length} call${round.calls.length === 1 ? '' : 's'} from one response`,
  ];
  if (started > 0) parts.push(`${started} started while the model was writing`);
  if (round.modelEndAt !== undefined) parts.push(`model ${ms(round.modelEndAt - round.startAt)}`);
  if (round.endAt !== undefined) parts.push(`round ${ms(round.endAt - round.startAt)}`);
  const tokens = round.usage?.totalTokens;
  if (tokens) parts.push(`${tokens} tokens`);
  return parts.join(' · ');
}

/** One round: heading, facts, chart and legend. */
export function roundSection(
  round: RoundView,
  view: RunView,
  options: {
    width: number;
    fromMs?: number;
    toMs?: number;
    selected?: string;
    onSelect?: (callId: string) => void;
  },
): HTMLElement {
  const layout = layoutRound(round, view.lastAt, {
    width: options.width,
    ...(options.fromMs === undefined ? {} : { fromMs: options.fromMs }),
    ...(options.toMs === undefined ? {} : { toMs: options.toMs }),
  });
  const svg = timelineSvg(layout, {
    title: `Round ${round.round} timeline`,
    ...(options.selected ? { selected: options.selected } : {}),
  });
  if (options.onSelect) {
    const select = options.onSelect;
    svg.addEventListener('click', (event) => {
      const row = (event.target as Element).closest('[data-row]');
      const key = row?.getAttribute('data-row');
      if (key && key !== 'model' && !key.endsWith(' lane')) select(key);
    });
  }
  return h(
    'section',
    { class: 'round', 'data-round': round.round },
    h(
      'h2',
      {},
      `Round ${round.round}`,
      h('span', { class: 'facts', 'data-facts': true }, roundFacts(round)),
    ),
    round.calls.length === 0 && round.text !== ''
      ? h('p', { class: 'muted' }, 'The model answered in text.')
      : null,
    h('div', { class: 'chart' }, svg),
    round.calls.length > 0 ? legend() : null,
  );
}

function field(name: string, value: unknown): HTMLElement {
  return h(
    'div',
    { class: 'field' },
    h('div', { class: 'field-name' }, name),
    h('pre', {}, pretty(value)),
  );
}

/** A call's details: arguments as written and resolved, output, error, attempts, events. */
export function callDetails(call: CallView): HTMLElement {
  return h(
    'div',
    { class: 'call-details', 'data-call-details': call.id },
    h(
      'h3',
      {},
      `${call.id} `,
      h('span', { class: 'mono' }, call.name),
      h('span', { class: `badge badge-${call.status}` }, call.status),
    ),
    h(
      'p',
      { class: 'muted' },
      [
        call.references.length > 0 ? `uses ${call.references.join(', ')}` : 'no $ref inputs',
        `attempt${call.attempts === 1 ? '' : 's'}: ${call.attempts}`,
        call.approval ? `policy: ${call.approval}` : '',
        call.startedDuringStream ? 'started while the model was writing' : '',
        call.readyAt !== undefined ? `ready at ${ms(call.readyAt)}` : '',
        call.startAt !== undefined ? `started at ${ms(call.startAt)}` : '',
        call.endAt !== undefined && call.startAt !== undefined
          ? `took ${ms(call.endAt - call.startAt)}`
          : '',
      ]
        .filter(Boolean)
        .join(' · '),
    ),
    h(
      'div',
      { class: 'fields' },
      field('arguments as written', call.arguments),
      field('arguments as resolved', call.resolvedArguments ?? call.arguments),
      call.status === 'error' || call.status === 'skipped'
        ? field(`error${call.errorCode ? ` (${call.errorCode})` : ''}`, call.error)
        : field('output', call.output),
    ),
    call.lane.length > 0
      ? h(
          'ol',
          { class: 'lane' },
          call.lane.map((mark) =>
            h('li', {}, h('span', { class: 'mono' }, ms(mark.at)), ` ${mark.type}: ${mark.label}`),
          ),
        )
      : null,
  );
}

/** The conversation: the input, each round's reasoning, text and calls, the answer. */
export function transcript(view: RunView): HTMLElement {
  return h(
    'section',
    { class: 'transcript' },
    h('h2', {}, 'Transcript'),
    view.input !== undefined
      ? h(
          'div',
          { class: 'turn user' },
          h('div', { class: 'who' }, 'user'),
          h('div', {}, view.input),
        )
      : null,
    view.rounds.map((round) =>
      h(
        'div',
        { class: 'turn assistant' },
        h('div', { class: 'who' }, `model · round ${round.round}`),
        round.reasoning !== ''
          ? h(
              'details',
              { class: 'reasoning' },
              h('summary', {}, 'reasoning'),
              h('pre', {}, round.reasoning),
            )
          : null,
        round.text !== '' ? h('div', {}, round.text) : null,
        round.calls.length > 0
          ? h(
              'ul',
              { class: 'mono' },
              round.calls.map((call) =>
                h(
                  'li',
                  {},
                  `${call.id} ${call.name}(${pretty(call.arguments).replace(/\s+/g, ' ')})`,
                ),
              ),
            )
          : null,
        round.usage && Object.values(round.usage).some((value) => value > 0)
          ? h(
              'div',
              { class: 'muted' },
              Object.entries(round.usage)
                .filter(([, value]) => value > 0)
                .map(([key, value]) => `${key} ${value}`)
                .join(' · '),
            )
          : null,
      ),
    ),
  );
}
