import { useCallback, useEffect, useLayoutEffect, useRef } from 'react';

interface Pager {
  /** Pages loaded so far: after each one the end is looked at again (a short list stays in view). */
  data?: { pages: readonly unknown[] } | undefined;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage(): Promise<unknown>;
}

/**
 * Infinite scroll: returns a ref for an element at the end of a list; when it comes near the
 * viewport (IntersectionObserver), the next page is loaded. Loading twice at once never happens.
 */
export function useLoadMoreOnView(pager: Pager, rootMargin = '400px') {
  const latest = useRef(pager);
  // Updated as the page is committed, not after paint: an intersection reported in between must
  // see that the next page exists.
  useLayoutEffect(() => {
    latest.current = pager;
  });
  const observer = useRef<IntersectionObserver | null>(null);
  useEffect(() => () => observer.current?.disconnect(), []);
  const pageCount = pager.data?.pages.length ?? 0;
  return useCallback(
    (element: HTMLElement | null) => {
      observer.current?.disconnect();
      observer.current = null;
      if (!element || typeof IntersectionObserver === 'undefined') return;
      observer.current = new IntersectionObserver(
        (entries) => {
          const { hasNextPage, isFetchingNextPage, fetchNextPage } = latest.current;
          if (entries.some((entry) => entry.isIntersecting) && hasNextPage && !isFetchingNextPage) {
            void fetchNextPage();
          }
        },
        { rootMargin },
      );
      observer.current.observe(element);
    },
    // A new page gives a new ref callback, so a fresh observer reports whether the end is still in view.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [rootMargin, pageCount],
  );
}
