import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PRELOAD_ERROR_EVENT, preloadPage } from './router';

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
