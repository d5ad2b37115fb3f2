// The MTPX Inspector's web app: vanilla TypeScript and SVG, bundled into the package.
import { comparePage } from './compare-page';
import { h } from './dom';
import { installKeyboard } from './keyboard';
import { provenancePage } from './provenance-page';
import { runPage } from './run-page';
import { runsPage } from './runs-page';
import './app.css';

const root = document.getElementById('app') as HTMLElement;
let leave: (() => void) | undefined;

async function show(): Promise<void> {
  leave?.();
  leave = undefined;
  const path = location.pathname;
  const query = new URLSearchParams(location.search);
  try {
    const run = /^\/runs\/([^/]+)$/.exec(path);
    if (run) leave = await runPage(root, decodeURIComponent(run[1] as string));
    else if (path === '/compare')
      leave = await comparePage(root, query.get('a') ?? '', query.get('b') ?? '');
    else if (path === '/provenance') leave = await provenancePage(root, navigate);
    else leave = await runsPage(root, navigate);
    document.title = `${document.querySelector('h1')?.textContent ?? 'Runs'} · MTPX Inspector`;
  } catch (error) {
    root.replaceChildren(
      h('nav', { class: 'crumbs' }, h('a', { href: '/' }, '← Runs')),
      h('p', { class: 'failure' }, error instanceof Error ? error.message : String(error)),
    );
  }
}

function navigate(path: string): void {
  history.pushState(null, '', path);
  void show();
}

// Links inside the app change the page without a reload.
document.addEventListener('click', (event) => {
  const link = (event.target as Element).closest('a');
  if (!link || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
  const url = new URL(link.href);
  if (url.origin !== location.origin) return;
  event.preventDefault();
  navigate(url.pathname + url.search);
});
window.addEventListener('popstate', () => void show());
installKeyboard(navigate);
document.body.prepend(
  h(
    'header',
    { class: 'top' },
    h('a', { href: '/', class: 'brand' }, 'MTPX Inspector'),
    h('a', { href: '/' }, 'Runs'),
    h('a', { href: '/provenance' }, 'Provenance'),
  ),
);
void show();
