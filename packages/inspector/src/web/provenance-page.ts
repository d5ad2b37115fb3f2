import { fetchProvenance } from './api';
import { h } from './dom';

/** An MPL plan's provenance chain, link by link, each with its verification. */
export async function provenancePage(
  root: HTMLElement,
  navigate: (path: string) => void,
): Promise<() => void> {
  const planId = new URLSearchParams(location.search).get('planId') ?? '';
  const input = h('input', {
    type: 'search',
    placeholder: 'plan id',
    'aria-label': 'Plan id',
    value: planId,
    'data-filter': true,
  });
  const form = h(
    'form',
    { class: 'toolbar' },
    input,
    h('button', { type: 'submit' }, 'Show chain'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    navigate(`/provenance?planId=${encodeURIComponent(input.value.trim())}`);
  });
  const result = h('div', { class: 'provenance' });
  root.replaceChildren(
    h('nav', { class: 'crumbs' }, h('a', { href: '/' }, '← Runs')),
    h('h1', {}, 'MPL provenance chain'),
    form,
    result,
  );
  if (planId === '') {
    result.append(
      h(
        'p',
        { class: 'muted' },
        'Enter a plan id. The Inspector reads chains from the MPL proxy given with --mpl-proxy URL (or its data folder, --mpl-data DIR) and verifies every link again here.',
      ),
    );
    return () => {};
  }
  try {
    const chain = await fetchProvenance(planId);
    result.append(
      h(
        'p',
        {},
        h(
          'span',
          {
            class: `badge badge-${chain.valid ? 'finished' : 'failed'}`,
            'data-chain-valid': String(chain.valid),
          },
          chain.valid ? 'chain verified' : 'chain broken',
        ),
        ` ${chain.links.length} links · head ${chain.head ?? '–'}`,
      ),
      h(
        'ol',
        { class: 'chain' },
        chain.links.map((link) =>
          h(
            'li',
            { class: link.verified ? 'link-ok' : 'link-bad', 'data-nav': true, tabindex: 0 },
            h(
              'div',
              {},
              h('strong', {}, link.verified ? '✓ ' : '✗ '),
              `seq ${String(link.entry.seq)} · ${String(link.entry.stype)} · QoM ${link.entry.qom_passed ? 'passed' : 'failed'} (${String(link.entry.qom_profile)})`,
            ),
            h('div', { class: 'mono muted' }, `sem_hash ${String(link.entry.sem_hash)}`),
            h('div', { class: 'mono muted' }, `parent ${String(link.entry.parent_hash ?? '–')}`),
            link.problems.map((problem) => h('div', { class: 'failure' }, problem)),
          ),
        ),
      ),
    );
  } catch (error) {
    result.append(
      h('p', { class: 'failure' }, error instanceof Error ? error.message : String(error)),
    );
  }
  return () => {};
}
