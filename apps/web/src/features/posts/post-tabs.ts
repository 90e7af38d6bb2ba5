import type { TPostListType } from '@mirra/contracts';

/** The feed's tabs, in the order they are shown (/posts/:type/). */
export const FEED_TABS = ['saved', 'recommended', 'new', 'subscribed'] as const;
export type FeedTab = (typeof FEED_TABS)[number];
export type PostListType = TPostListType;

/**
 * The tab an address names. `top` is where /posts/ and /prompts/top/ lead, and the server reads it
 * as `recommended` (engagement with time decay), so both names open the recommended tab.
 */
export function tabOfRoute(type: string | undefined): FeedTab | null {
  if (type === 'top') return 'recommended';
  return (FEED_TABS as readonly string[]).includes(type ?? '') ? (type as FeedTab) : null;
}

/** The address of a tab, keeping the search: the recommended tab's address stays `/posts/top/`, which links out there already use. */
export function routeOfTab(tab: FeedTab, q = ''): string {
  const path = `/posts/${tab === 'recommended' ? 'top' : tab}/`;
  const query = q.trim();
  return query ? `${path}?q=${encodeURIComponent(query)}` : path;
}

/** Tabs about me: a guest sees a sign-in prompt instead of a list. */
export function isPersonalTab(tab: FeedTab): boolean {
  return tab === 'saved' || tab === 'subscribed';
}

/** What an empty list says: 'no posts found' for a search, else the tab's own. */
export function emptyMessageKey(tab: FeedTab, q: string): string {
  return q.trim() ? 'feed.noResults' : `feed.empty.${tab === 'recommended' ? 'top' : tab}`;
}
