import type { QueryClient } from '@tanstack/react-query';
import { postKeys, postsApi } from './api/posts.api';
import { isPersonalTab, tabOfRoute, type FeedTab } from './post-tabs';

/**
 * A feed tab's list: its cache key and how a page of it is fetched. The list and its early start
 * share it, so the list finds what was fetched before it rendered. A signed-in person sees their
 * own saved flags: their list is not a guest's.
 */
export function feedListQuery(tab: FeedTab, q: string, isLoggedIn: boolean) {
  return {
    queryKey: [...postKeys.list(tab, q), isLoggedIn] as const,
    fetchPage: (cursor: string | null) => postsApi.list(tab, q, cursor),
  };
}

/**
 * Starts fetching the first page of the feed an address shows (`/posts/:type/?q=`) while its
 * page's code is still on the way, so the first pictures are asked for one step sooner. Nothing is
 * fetched for an address that is not a tab, nor for a personal tab of a guest (it shows no list).
 */
export function prefetchFeed(
  client: QueryClient,
  type: string | undefined,
  search: URLSearchParams,
  isLoggedIn: boolean,
): Promise<void> {
  const tab = tabOfRoute(type);
  if (!tab || (isPersonalTab(tab) && !isLoggedIn)) return Promise.resolve();
  const { queryKey, fetchPage } = feedListQuery(tab, (search.get('q') ?? '').trim(), isLoggedIn);
  return client.prefetchInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam }) => fetchPage(pageParam),
    initialPageParam: null as string | null,
  });
}
