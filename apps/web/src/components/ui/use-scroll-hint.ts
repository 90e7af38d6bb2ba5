import { useCallback, useRef } from 'react';

/**
 * A ref for a sideways-scrolling row that marks which of its ends hide more (`data-more="start" |
 * "end" | "both"`), so the row can fade there (see `.tabs[data-more]`): a tab scrolled off-screen
 * is then seen to be there. The tab in use is brought into view.
 */
export function useScrollHint<T extends HTMLElement>() {
  const stop = useRef<(() => void) | null>(null);
  return useCallback((row: T | null) => {
    stop.current?.();
    stop.current = null;
    if (!row) return;
    const update = () => {
      const start = row.scrollLeft > 1;
      const end = row.scrollLeft + row.clientWidth < row.scrollWidth - 1;
      const more = start && end ? 'both' : start ? 'start' : end ? 'end' : null;
      if (more) row.dataset.more = more;
      else delete row.dataset.more;
    };
    const active = row.querySelector<HTMLElement>('[aria-selected="true"], .is-active');
    if (active && row.scrollWidth > row.clientWidth) {
      row.scrollLeft = Math.max(0, active.offsetLeft - row.offsetLeft - 24);
    }
    update();
    row.addEventListener('scroll', update, { passive: true });
    // The labels' widths change with the language and the fonts, and the row's overflow with them.
    const resize = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(update);
    const observeChildren = () => {
      for (const child of Array.from(row.children)) resize?.observe(child);
    };
    resize?.observe(row);
    observeChildren();
    // Tabs added, removed or relabelled later (a signed-in person's extra tab, the catalogue
    // arriving) change the overflow without resizing the row itself.
    const mutations =
      typeof MutationObserver === 'undefined'
        ? null
        : new MutationObserver(() => {
            observeChildren();
            update();
          });
    mutations?.observe(row, { childList: true, subtree: true, characterData: true });
    stop.current = () => {
      row.removeEventListener('scroll', update);
      resize?.disconnect();
      mutations?.disconnect();
    };
  }, []);
}
