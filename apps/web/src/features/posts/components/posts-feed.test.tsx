import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { i18n as I18n } from 'i18next';
import type { TPostList } from '../../../lib/api-types';
import { useAppStore } from '../../../lib/app-store';
import { useSession } from '../../../lib/session';
import { createTestI18n } from '../../../test/i18n';
import { makePost } from '../../../test/posts';
import { postsApi } from '../api/posts.api';
import { tabOfRoute } from '../post-tabs';
import { PostsFeed } from './posts-feed';

let i18n: I18n;
beforeAll(async () => {
  i18n = await createTestI18n('en');
});
beforeEach(() => {
  useSession.setState({ isLoggedIn: true, status: 'ready' });
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  useAppStore.setState({ authPopup: false, authTarget: null });
});

function Where() {
  const location = useLocation();
  return <output data-testid="where">{location.pathname + location.search}</output>;
}

function FeedRoute() {
  const location = useLocation();
  const type = location.pathname.split('/')[2];
  return <PostsFeed tab={tabOfRoute(type)!} />;
}

function renderFeed(path: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <I18nextProvider i18n={i18n}>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path="/posts/:type/" element={<FeedRoute />} />
          </Routes>
          <Where />
        </MemoryRouter>
      </I18nextProvider>
    </QueryClientProvider>,
  );
}

describe('the feed', () => {
  it('shows the recommended tab at /posts/top/, each post once across pages that overlap', async () => {
    const pages: Record<string, TPostList> = {
      first: { results: [makePost(1), makePost(2)], next: 'c1' },
      c1: { results: [makePost(2), makePost(3)], next: null },
    };
    const list = vi
      .spyOn(postsApi, 'list')
      .mockImplementation(async (_t, _q, cursor) => pages[cursor ?? 'first']!);
    renderFeed('/posts/top/');
    await waitFor(() => expect(screen.getAllByTestId('post-card')).toHaveLength(2));
    expect(list).toHaveBeenCalledWith('recommended', '', null);
    expect(screen.getByTestId('feed-tab-recommended').getAttribute('aria-selected')).toBe('true');
    fireEvent.click(screen.getByText('Show more'));
    await waitFor(() => expect(screen.getAllByTestId('post-card')).toHaveLength(3));
    const cards = screen.getAllByTestId('post-card').map((card) => card.getAttribute('data-uuid'));
    expect(new Set(cards).size).toBe(3);
  });

  it('searches after typing pauses, keeps the query in the address, and says no posts were found when nothing matches', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const list = vi.spyOn(postsApi, 'list').mockResolvedValue({ results: [], next: null });
      renderFeed('/posts/new/');
      await screen.findByText('Nothing new yet');
      fireEvent.input(screen.getByTestId('feed-search'), { target: { value: 'zebra' } });
      await act(() => vi.advanceTimersByTimeAsync(400));
      await screen.findByText('No posts found for the selected query');
      expect(screen.getByTestId('where').textContent).toBe('/posts/new/?q=zebra');
      expect(list).toHaveBeenLastCalledWith('new', 'zebra', null);
      // Another tab keeps the search.
      expect(screen.getByTestId('feed-tab-saved').getAttribute('href')).toBe('/posts/saved/?q=zebra');
    } finally {
      vi.useRealTimers();
    }
  });

  it('asks a guest to sign in on saved and subscribed instead of asking the server', async () => {
    useSession.setState({ isLoggedIn: false, status: 'guest' });
    const list = vi.spyOn(postsApi, 'list');
    renderFeed('/posts/subscribed/');
    fireEvent.click(await screen.findByRole('button', { name: 'Sign in' }));
    expect(useAppStore.getState()).toMatchObject({ authPopup: true, authTarget: '/posts/subscribed/' });
    expect(screen.getByText('Sign in to see your subscriptions')).toBeTruthy();
    expect(list).not.toHaveBeenCalled();
  });

  it('offers remix on every card and unpublish on my own; unpublishing takes the card away', async () => {
    const mine = makePost(1, { is_mine: true });
    vi.spyOn(postsApi, 'list').mockResolvedValue({ results: [mine, makePost(2)], next: null });
    const unpublish = vi.spyOn(postsApi, 'unpublish').mockResolvedValue({ ...mine, status: 'draft' });
    renderFeed('/posts/new/');
    await waitFor(() => expect(screen.getAllByTestId('post-card')).toHaveLength(2));
    expect(screen.getAllByTestId('post-card-remix').map((link) => link.getAttribute('href'))).toContain(
      `/generate/simple/post/${mine.uuid}/`,
    );
    expect(screen.getAllByTestId('post-card-unpublish')).toHaveLength(1);
    vi.spyOn(postsApi, 'list').mockResolvedValue({ results: [makePost(2)], next: null });
    fireEvent.click(screen.getByTestId('post-card-unpublish'));
    await waitFor(() => expect(screen.getAllByTestId('post-card')).toHaveLength(1));
    expect(unpublish).toHaveBeenCalledWith(mine.uuid);
  });

  it('saves at once and takes it back when the server refuses', async () => {
    const post = makePost(2, { saves_count: 4 });
    vi.spyOn(postsApi, 'list').mockResolvedValue({ results: [post], next: null });
    let refuse: (error: Error) => void = () => undefined;
    vi.spyOn(postsApi, 'save').mockImplementation(() => new Promise((_resolve, reject) => (refuse = reject)));
    renderFeed('/posts/new/');
    const save = await screen.findByTestId('post-card-save');
    fireEvent.click(save);
    await waitFor(() =>
      expect(screen.getByTestId('post-card-save').getAttribute('aria-pressed')).toBe('true'),
    );
    await act(async () => refuse(new Error('offline')));
    await waitFor(() =>
      expect(screen.getByTestId('post-card-save').getAttribute('aria-pressed')).toBe('false'),
    );
  });
});
