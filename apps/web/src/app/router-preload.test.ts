import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { prefetchPageData, PRELOAD_ERROR_EVENT, preloadPage } from './route-table';

// Which of the page's files were downloaded (a mocked module's factory runs when it is imported).
const downloaded = vi.hoisted(() => new Set<string>());
vi.mock('./routes/feed', () => {
  downloaded.add('feed page');
  return { Page: () => null };
});
vi.mock('../locales/social/en.json', () => {
  downloaded.add('social catalogue (en)');
  return { default: { feedPreloadProbe: 'probe' } };
});
const prefetchFeed = vi.hoisted(() => vi.fn(() => Promise.resolve()));
vi.mock('../features/posts/feed-query', () => ({ prefetchFeed }));
vi.mock('./routes/settings', () => {
  downloaded.add('settings page');
  throw new Error('offline');
});

const reported = vi.fn();
beforeEach(() => window.addEventListener(PRELOAD_ERROR_EVENT, reported));
afterEach(() => {
  window.removeEventListener(PRELOAD_ERROR_EVENT, reported);
  reported.mockClear();
  downloaded.clear();
});
/** Lets every settled download's handlers run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('preloadPage', () => {
  it('downloads the code and English extra catalogue of the page a path shows, before i18next is started', async () => {
    preloadPage('/posts/top/');
    await vi.waitFor(() => expect([...downloaded].sort()).toEqual(['feed page', 'social catalogue (en)']));
    await settle();
    // Adding the catalogue to an i18next not yet started would fail and report the page as broken.
    expect(reported).not.toHaveBeenCalled();
  });

  it('keeps a failed download quiet: the router reports it when it loads the page', async () => {
    preloadPage('/settings/');
    await vi.waitFor(() => expect(downloaded.has('settings page')).toBe(true));
    await settle();
    expect(reported).not.toHaveBeenCalled();
  });
});

describe('prefetchPageData', () => {
  it("starts the feed's first page for a feed address, with its tab and search", async () => {
    prefetchPageData('/posts/top/', '?q=fox');
    await vi.waitFor(() => expect(prefetchFeed).toHaveBeenCalledOnce());
    const [, type, search, isLoggedIn] = prefetchFeed.mock.calls[0] as unknown as [
      unknown,
      string,
      URLSearchParams,
      boolean,
    ];
    expect([type, search.get('q'), isLoggedIn]).toEqual(['top', 'fox', false]);
  });

  it('fetches nothing ahead for a page that has nothing to fetch first', async () => {
    prefetchFeed.mockClear();
    prefetchPageData('/create/', '');
    await settle();
    expect(prefetchFeed).not.toHaveBeenCalled();
  });
});
