import type { RunSummary } from '../view/run-summary';
import { fetchRuns } from './api';
import { h, ms } from './dom';

function matches(run: RunSummary, text: string, status: string): boolean {
  if (status === 'waiting') {
    if (run.stopReason !== 'awaiting_approval') return false;
  } else if (status !== '' && run.status !== status) return false;
  if (text === '') return true;
  const haystack = [
    run.runId,
    run.input,
    run.model,
    run.provider,
    run.agentName,
    run.finalText,
    run.status,
  ]
    .join(' ')
    .toLowerCase();
  return text
    .toLowerCase()
    .split(/\s+/)
    .every((word) => haystack.includes(word));
}

/** The runs list: status, model, rounds, calls, tokens, duration, errors; filterable; two can be compared. */
export async function runsPage(
  root: HTMLElement,
  navigate: (path: string) => void,
): Promise<() => void> {
  const filter = h('input', {
    type: 'search',
    placeholder: 'Filter runs (press /)',
    'aria-label': 'Filter runs',
    'data-filter': true,
    value: new URLSearchParams(location.search).get('q') ?? '',
  });
  const status = h(
    'select',
    { 'aria-label': 'Status' },
    ...['', 'finished', 'running', 'waiting', 'failed', 'cancelled'].map((value) =>
      h(
        'option',
        { value },
        value === '' ? 'any status' : value === 'waiting' ? 'waiting for approval' : value,
      ),
    ),
  );
  const compare = h('button', { type: 'button', disabled: true }, 'Compare two runs');
  const body = h('tbody');
  const count = h('span', { class: 'count' });
  const chosen = new Set<string>();
  let runs: RunSummary[] = [];

  const render = () => {
    // The list is rebuilt on every refresh: the focused row's link or checkbox gets the
    // focus back, so keyboard navigation (j, k, Enter) survives a refresh.
    const focused = document.activeElement;
    const focusedRun = body.contains(focused)
      ? focused?.closest('tr[data-run]')?.getAttribute('data-run')
      : undefined;
    const focusedPart = focused?.tagName === 'INPUT' ? 'input' : 'a[data-nav]';
    const shown = runs.filter((run) => matches(run, filter.value.trim(), status.value));
    count.textContent = `${shown.length} of ${runs.length} runs`;
    body.replaceChildren(
      ...shown.map((run) =>
        h(
          'tr',
          { 'data-run': run.runId, class: `status-${run.status}` },
          h(
            'td',
            {},
            h('input', {
              type: 'checkbox',
              'aria-label': `choose ${run.runId} to compare`,
              checked: chosen.has(run.runId),
              onchange: (event: Event) => {
                const box = event.target as HTMLInputElement;
                if (box.checked) chosen.add(run.runId);
                else chosen.delete(run.runId);
                compare.disabled = chosen.size !== 2;
              },
            }),
          ),
          h(
            'td',
            {},
            run.stopReason === 'awaiting_approval'
              ? h(
                  'span',
                  { class: 'badge badge-waiting', 'data-waiting': run.pendingApprovals ?? 0 },
                  `waiting for approval (${run.pendingApprovals ?? 0})`,
                )
              : h('span', { class: `badge badge-${run.status}` }, run.status),
          ),
          h(
            'td',
            { class: 'run-cell' },
            h(
              'a',
              { href: `/runs/${encodeURIComponent(run.runId)}`, 'data-nav': true },
              run.input ?? run.runId,
            ),
            h('div', { class: 'muted mono' }, run.runId),
          ),
          h('td', {}, run.model ?? '–'),
          h('td', { class: 'num' }, run.rounds),
          h('td', { class: 'num' }, run.calls),
          h('td', { class: 'num' }, run.totalTokens || '–'),
          h('td', { class: 'num' }, ms(run.durationMs)),
          h('td', { class: `num${run.errors > 0 ? ' errors' : ''}` }, run.errors),
          h(
            'td',
            { class: 'muted' },
            run.startedAt ? new Date(run.startedAt).toLocaleString() : '–',
          ),
        ),
      ),
    );
    if (shown.length === 0)
      body.append(
        h(
          'tr',
          {},
          h(
            'td',
            { colspan: 10, class: 'empty' },
            runs.length === 0
              ? 'No runs recorded yet. Record one: pnpm demo -- --record DIR'
              : 'No run matches the filter.',
          ),
        ),
      );
    if (focusedRun !== undefined && focusedRun !== null) {
      const row = [...body.querySelectorAll('tr[data-run]')].find(
        (candidate) => candidate.getAttribute('data-run') === focusedRun,
      );
      row?.querySelector<HTMLElement>(focusedPart)?.focus();
    }
  };
  let shownJson = '';
  const load = async () => {
    const loaded = (await fetchRuns()).runs;
    // An unchanged list is left as it is (nothing to re-render every 2 s).
    const loadedJson = JSON.stringify(loaded);
    if (loadedJson === shownJson) return;
    shownJson = loadedJson;
    runs = loaded;
    render();
  };
  filter.addEventListener('input', render);
  status.addEventListener('change', render);
  compare.addEventListener('click', () => {
    const [a, b] = [...chosen];
    if (a && b) navigate(`/compare?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}`);
  });
  root.replaceChildren(
    h('h1', {}, 'Runs'),
    h('div', { class: 'toolbar' }, filter, status, compare, count),
    h(
      'table',
      { class: 'runs' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ...[
            '',
            'status',
            'run',
            'model',
            'rounds',
            'calls',
            'tokens',
            'duration',
            'errors',
            'started',
          ].map((name) => h('th', {}, name)),
        ),
      ),
      body,
    ),
  );
  await load();
  // New and running runs show up without a reload.
  const timer = setInterval(() => void load().catch(() => {}), 2000);
  return () => clearInterval(timer);
}
