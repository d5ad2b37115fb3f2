import type { RunView } from '../view/run-model';
import { fetchRun } from './api';
import { h, ms } from './dom';
import { roundSection } from './run-parts';

/** How long a run's rounds with calls take, longest: the shared axis of a comparison. */
function longestRound(view: RunView): number {
  return Math.max(
    1,
    ...view.rounds.map(
      (round) =>
        Math.max(round.endAt ?? view.lastAt, ...round.calls.map((call) => call.endAt ?? 0)) -
        round.startAt,
    ),
  );
}

/** Two runs side by side, each round on ONE time axis shared by both (eager vs after-stream, before vs after). */
export async function comparePage(root: HTMLElement, a: string, b: string): Promise<() => void> {
  const [left, right] = await Promise.all([fetchRun(a), fetchRun(b)]);
  const span = Math.max(longestRound(left.view), longestRound(right.view));
  const width = Math.max(240, Math.min(560, Math.floor((window.innerWidth - 80) / 2) - 330));
  const column = (view: RunView) =>
    h(
      'div',
      { class: 'compare-column', 'data-compare': view.runId },
      h(
        'h2',
        {},
        h('a', { href: `/runs/${encodeURIComponent(view.runId)}` }, view.input ?? view.runId),
      ),
      h(
        'p',
        { class: 'run-meta' },
        h('span', { class: `badge badge-${view.status}` }, view.status),
        ` ${view.model ?? ''} · eager dispatch ${view.eagerDispatch ? 'on' : 'off'} · ${ms(view.durationMs ?? view.lastAt)}`,
      ),
      view.rounds.map((round) =>
        roundSection(round, view, { width, fromMs: round.startAt, toMs: round.startAt + span }),
      ),
    );
  root.replaceChildren(
    h('nav', { class: 'crumbs' }, h('a', { href: '/' }, '← Runs')),
    h('h1', {}, 'Two runs on one axis'),
    h('p', { class: 'muted' }, `Each round is drawn on the same ${ms(span)} axis in both columns.`),
    h('div', { class: 'compare' }, column(left.view), column(right.view)),
  );
  return () => {};
}
