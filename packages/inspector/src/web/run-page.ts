import { type RunViewEvent, reduceRunView, runViewOf } from '@mtpx/agent/run-view';
import type { RecordedEvent } from '../record/recorded-event';
import { inspectorRunView, type RunView } from '../view/run-model';
import { fetchRun, followRun } from './api';
import { fill, h, ms, pretty } from './dom';
import { pendingApprovalsSection } from './pending-approvals';
import { callDetails, roundSection, transcript } from './run-parts';

/** Pixels of the time axis for the window's width. */
export function chartWidth(): number {
  return Math.max(320, Math.min(900, window.innerWidth - 420));
}

/** A run's page: header, answer, usage, each round's chart, call details, transcript, other events; live while running. */
export async function runPage(root: HTMLElement, runId: string): Promise<() => void> {
  const run = await fetchRun(runId);
  const events: RecordedEvent[] = [...run.events];
  let view: RunView = run.view;
  let selected: string | undefined;
  let stop: (() => void) | undefined;
  let frame = 0;

  const select = (callId: string) => {
    selected = callId;
    render();
    document.querySelector<HTMLElement>(`[data-call="${CSS.escape(callId)}"]`)?.focus();
  };

  const render = () => {
    const calls = view.rounds.flatMap((round) => round.calls);
    const chosen = calls.find((call) => call.id === selected) ?? calls[0];
    const usage = Object.entries(view.usage).filter(([, value]) => value > 0);
    fill(
      root,
      h('nav', { class: 'crumbs' }, h('a', { href: '/' }, '← Runs')),
      h('h1', { 'data-run-title': true }, view.input ?? runId),
      h(
        'p',
        { class: 'run-meta' },
        view.pendingApprovals !== undefined
          ? h(
              'span',
              { class: 'badge badge-waiting', 'data-run-status': 'waiting' },
              'waiting for approval',
            )
          : h(
              'span',
              { class: `badge badge-${view.status}`, 'data-run-status': view.status },
              view.status === 'running' ? 'running · live' : view.status,
            ),
        ` ${[view.agentName, view.provider, view.model].filter(Boolean).join(' · ')}`,
        ` · ${view.streaming ? `streamed, eager dispatch ${view.eagerDispatch ? 'on' : 'off'}` : 'whole turns'}`,
        ` · ${ms(view.durationMs ?? view.lastAt)}`,
        h('span', { class: 'muted mono' }, ` ${runId}`),
      ),
      view.finalText !== undefined && view.pendingApprovals === undefined
        ? h(
            'div',
            { class: 'answer', 'data-answer': true },
            h('div', { class: 'who' }, 'answer'),
            view.finalText || '(none)',
          )
        : null,
      view.pendingApprovals !== undefined ? pendingApprovalsSection(view.pendingApprovals) : null,
      view.error
        ? h('div', { class: 'failure' }, `${view.error.code ?? 'failed'}: ${view.error.message}`)
        : null,
      h(
        'p',
        { class: 'usage', 'data-usage': true },
        `${view.rounds.length} model call${view.rounds.length === 1 ? '' : 's'} · ${calls.length} tool calls · `,
        usage.length > 0
          ? usage.map(([key, value]) => `${key} ${value}`).join(' · ')
          : 'no token counts reported',
      ),
      run.skippedLines > 0
        ? h(
            'p',
            { class: 'muted' },
            `${run.skippedLines} torn or foreign line${run.skippedLines === 1 ? '' : 's'} skipped in the record.`,
          )
        : null,
      view.rounds.map((round) =>
        roundSection(round, view, {
          width: chartWidth(),
          onSelect: select,
          ...(chosen ? { selected: chosen.id } : {}),
        }),
      ),
      calls.length > 0
        ? h(
            'section',
            { class: 'calls' },
            h('h2', {}, 'Calls'),
            h(
              'div',
              { class: 'calls-grid' },
              h(
                'ul',
                { class: 'call-list', role: 'listbox', 'aria-label': 'Calls' },
                calls.map((call) =>
                  h(
                    'li',
                    {},
                    h(
                      'button',
                      {
                        type: 'button',
                        'data-nav': true,
                        'data-call': call.id,
                        'aria-selected': call === chosen ? 'true' : 'false',
                        class: call === chosen ? 'chosen' : '',
                        onclick: () => select(call.id),
                      },
                      h('span', { class: `dot dot-${call.status}` }),
                      `${call.id} `,
                      h('span', { class: 'muted' }, call.name),
                    ),
                  ),
                ),
              ),
              chosen ? callDetails(chosen) : null,
            ),
          )
        : null,
      transcript(view),
      view.other.length > 0
        ? h(
            'section',
            { class: 'other' },
            h('h2', {}, 'Other events'),
            h(
              'p',
              { class: 'muted' },
              'Events this Inspector does not place on the timeline, as recorded.',
            ),
            h(
              'ol',
              {},
              view.other.map((event) =>
                h(
                  'li',
                  {},
                  h(
                    'span',
                    { class: 'mono' },
                    `${ms(typeof event.at === 'number' ? event.at : undefined)} ${event.type}`,
                  ),
                  h('pre', {}, pretty(event)),
                ),
              ),
            ),
          )
        : null,
    );
  };
  render();
  if (view.status === 'running') {
    // Live: each new event is folded into the run's view, never the whole record again.
    let folded = runViewOf(events as RunViewEvent[], runId);
    stop = followRun(
      runId,
      events.length,
      (event) => {
        events.push(event);
        folded = reduceRunView(folded, event);
        view = inspectorRunView(folded);
        cancelAnimationFrame(frame);
        frame = requestAnimationFrame(render);
      },
      () => render(),
    );
  }
  return () => {
    stop?.();
    cancelAnimationFrame(frame);
  };
}
