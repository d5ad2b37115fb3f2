/**
 * Keyboard navigation: `j` / `↓` and `k` / `↑` move the focus through the page's
 * `[data-nav]` items (runs in the list, calls on a run page), `Enter` opens the focused
 * one (links and buttons do that natively), `/` focuses the filter, `Escape` goes back
 * to the runs list.
 */
export function installKeyboard(navigate: (path: string) => void): void {
  document.addEventListener('keydown', (event) => {
    const target = event.target as HTMLElement | null;
    const typing =
      target?.tagName === 'INPUT' || target?.tagName === 'SELECT' || target?.tagName === 'TEXTAREA';
    if (event.key === 'Escape') {
      if (typing) (target as HTMLElement).blur();
      else if (location.pathname !== '/') navigate('/');
      return;
    }
    if (typing || event.metaKey || event.ctrlKey || event.altKey) return;
    if (event.key === '/') {
      const filter = document.querySelector<HTMLInputElement>('[data-filter]');
      if (filter) {
        event.preventDefault();
        filter.focus();
      }
      return;
    }
    const step =
      event.key === 'j' || event.key === 'ArrowDown'
        ? 1
        : event.key === 'k' || event.key === 'ArrowUp'
          ? -1
          : 0;
    if (step === 0) return;
    const items = [...document.querySelectorAll<HTMLElement>('[data-nav]')].filter(
      (item) => item.offsetParent !== null,
    );
    if (items.length === 0) return;
    event.preventDefault();
    const current = items.indexOf(document.activeElement as HTMLElement);
    const next =
      current === -1
        ? step > 0
          ? 0
          : items.length - 1
        : Math.min(items.length - 1, Math.max(0, current + step));
    items[next]?.focus();
  });
}
